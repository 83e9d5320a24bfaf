/**
 * Permission requests the policy could not decide: they wait here for a person, and are denied
 * when their deadline passes. The supervisor answers the CLI when a decision is committed.
 */
import { countOf, type Sql } from "../../db/connection.ts";
import { jsonColumn, stringsOf, type ApprovalRow, type SessionRow } from "../../db/rows.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, inList, join, sql, type Query } from "../../db/sql.ts";
import { DomainError, invalidField, notFound } from "../../errors.ts";
import {
  ApprovalStatus,
  type ApprovalCount,
  type ApprovalsFilter,
  type ApprovalView,
  type DecideApprovalInput,
  type DecideApprovalsInput,
  type DecideApprovalsResult,
  type ListApprovalsInput,
} from "../../../lib/api/sessions.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import { ruleSubject, sessionRule } from "../../../lib/approval-rule.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize, permitsMany, type Permits } from "../auth/capabilities.ts";
import { moveTo, requireSession, sessionByPk } from "./sessions.repo.ts";

const SELECT_VIEW = sql`SELECT a.*, s."name" AS "session" FROM "Approval" a JOIN "Session" s ON s."pk" = a."sessionPk"`;
type ApprovalWithSession = ApprovalRow & { session: SessionRow["name"] };

const toView = (r: ApprovalWithSession): ApprovalView => {
  const { sessionPk: _pk, input, ...rest } = r;
  return { ...rest, status: ApprovalStatus.parse(r.status), input: jsonColumn(JsonObject, input) };
};

export async function openApproval(
  tx: WriteTx,
  session: SessionRow,
  request: { requestId: string; toolName: string; input: Record<string, unknown>; reason: string; timeoutMs: number },
): Promise<ApprovalView> {
  const expiresAt = new Date(tx.now.getTime() + request.timeoutMs);
  const { id } = (await tx.get<Pick<ApprovalRow, "id">>(
    sql`INSERT INTO "Approval" ("sessionPk","teamId","requestId","toolName","input","reason","status","createdAt","expiresAt") VALUES (${session.pk},${session.teamId},${request.requestId},${request.toolName},${JSON.stringify(request.input)},${request.reason},'pending',${tx.now},${expiresAt}) RETURNING "id"`,
  ))!;
  if (session.status !== "paused") await moveTo(tx, session, "waiting_permission", `approval ${id}: ${request.toolName}`);
  await tx.emit({
    teamId: session.teamId,
    type: "session.approval_requested",
    subject: `session:${session.name}`,
    payload: {
      name: session.name,
      approvalId: id,
      toolName: request.toolName,
      input: request.input,
      reason: request.reason,
      expiresAt,
    },
  });
  return (await approvalById(tx, id))!;
}

export async function approvalById(s: Sql, id: number): Promise<ApprovalView | undefined> {
  const row = await s.get<ApprovalWithSession>(sql`${SELECT_VIEW} WHERE a."id" = ${id}`);
  return row && toView(row);
}

/** Settles a pending approval; returns null when it was already settled (a decision and a timeout raced). */
/** `rule`: the allowed-tool rule the decision added to the session (docs/sessions.md#allow-for-this-session), for its running process. */
export async function settleApproval(
  tx: WriteTx,
  id: number,
  status: Exclude<ApprovalStatus, "pending">,
  decidedBy: string,
  note: string | null,
  rule: string | null = null,
): Promise<ApprovalView | null> {
  const row = await tx.get<ApprovalRow>(sql`SELECT * FROM "Approval" WHERE "id" = ${id}`);
  if (!row || row.status !== "pending") return null;
  await tx.run(sql`UPDATE "Approval" SET "status" = ${status}, "decidedBy" = ${decidedBy}, "note" = ${note}, "decidedAt" = ${tx.now} WHERE "id" = ${id}`);
  const session = (await sessionByPk(tx, row.sessionPk))!;
  const stillPending = await tx.get(sql`SELECT 1 FROM "Approval" WHERE "sessionPk" = ${row.sessionPk} AND "status" = 'pending'`);
  if (session.status === "waiting_permission" && !stillPending) await moveTo(tx, session, "busy", `approval ${id} ${status}`);
  await tx.emit({
    teamId: session.teamId,
    type: "session.approval_decided",
    subject: `session:${session.name}`,
    payload: { name: session.name, approvalId: id, requestId: row.requestId, toolName: row.toolName, status, decidedBy, note, ...(rule ? { rule } : {}) },
  });
  return (await approvalById(tx, id))!;
}

/** A person's answer (docs/domain.md#permissions): the operator or a lead of the session's team, since approvals exist for what agents may not do alone. */
export async function decideApproval({ db }: DomainDeps, actor: Principal, input: DecideApprovalInput): Promise<ApprovalView> {
  return db.write("session.approval", actor.name, async (tx) => {
    const session = await requireSession(tx, input.name);
    await authorize(tx, actor, "approval.decide", { team: session.teamId, label: `of session '${session.name}'` });
    const current = await approvalById(tx, input.approvalId);
    if (!current || current.session !== session.name) throw notFound(`approval of session '${session.name}'`, String(input.approvalId), "approvalId");
    if (current.status !== "pending") {
      throw new DomainError("illegal_transition", `approval ${input.approvalId} is already ${current.status}`, {
        field: "approvalId",
        current: current.status,
      });
    }
    if (!input.forSession)
      return (await settleApproval(tx, input.approvalId, input.decision === "allow" ? "allowed" : "denied", actor.name, input.note ?? null))!;
    const rule = sessionRuleFor(current);
    const rules = stringsOf(session.allowedTools);
    if (!rules.includes(rule)) await tx.run(sql`UPDATE "Session" SET "allowedTools" = ${JSON.stringify([...rules, rule])} WHERE "pk" = ${session.pk}`);
    const decided = (await settleApproval(tx, input.approvalId, "allowed", actor.name, input.note ?? null, rule))!;
    // The same call asked again meanwhile (the model's parallel calls) is what the person just allowed.
    for (const other of await pendingApprovals(tx, session.pk)) {
      if (other.toolName === current.toolName && ruleSubject(other.input) === ruleSubject(current.input)) {
        await settleApproval(tx, other.id, "allowed", actor.name, `allowed by rule ${rule}`);
      }
    }
    return decided;
  });
}

/** The rule that allows exactly this call again (lib/approval-rule.ts); refused in words where there is none. */
function sessionRuleFor(a: Pick<ApprovalView, "id" | "toolName" | "input">): string {
  const r = sessionRule(a.toolName, a.input);
  if ("rule" in r) return r.rule;
  throw invalidField("forSession", "rememberable", `approval ${a.id} cannot be allowed for the whole session: ${r.why}; allow it once instead`);
}

/**
 * The approvals queue's bulk answer, in one transaction: every id must be an approval of the team (else not_found
 * naming `ids[i]`, and nothing is decided); those no longer pending are reported as skipped, since a request can
 * time out or be answered by someone else while a person reads the queue.
 */
export async function decideApprovals({ db }: DomainDeps, actor: Principal, input: DecideApprovalsInput): Promise<DecideApprovalsResult> {
  return db.write("session.approvals", actor.name, async (tx) => {
    await authorize(tx, actor, "approval.decide", { team: input.team, label: `of team '${input.team}'` });
    const rows = await tx.all<ApprovalRow>(sql`SELECT * FROM "Approval" WHERE "teamId" = ${input.team} AND "id" IN ${inList(input.ids)}`);
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = input.ids.findIndex((id) => !byId.has(id));
    if (missing >= 0) throw notFound(`approval of team '${input.team}'`, String(input.ids[missing]), `ids[${missing}]`);
    const status = input.decision === "allow" ? "allowed" : "denied";
    const result: DecideApprovalsResult = { decided: [], skipped: [] };
    for (const id of input.ids) {
      const settled = await settleApproval(tx, id, status, actor.name, input.note ?? null);
      if (settled) result.decided.push(settled);
      else result.skipped.push({ id, status: ApprovalStatus.parse(byId.get(id)!.status) });
    }
    return result;
  });
}

/** What a tool call would do is shown to those who may decide it (the operator, the team's leads); others see that it is hidden. */
export async function approvalFor(s: Sql, actor: Principal, a: ApprovalView, may: Permits = permitsMany(s, actor)): Promise<ApprovalView> {
  if (await may("approval.decide", { team: a.teamId })) return a;
  return { ...a, input: {}, inputHidden: true };
}

/** The WHERE clause (or nothing) of a filter over approvals `a`. */
function filtered({ team, status }: ApprovalsFilter): Query {
  const where: Query[] = [];
  if (team) where.push(sql`a."teamId" = ${team}`);
  if (status) where.push(sql`a."status" = ${status}`);
  return where.length ? sql`WHERE ${join(where, " AND ")}` : EMPTY;
}

export async function listApprovals({ db }: DomainDeps, actor: Principal, input: ListApprovalsInput): Promise<ApprovalView[]> {
  const where = filtered(input);
  return db.read(async (s) => {
    const rows = await s.all<ApprovalWithSession>(sql`${SELECT_VIEW} ${where} ORDER BY a."id" DESC LIMIT ${input.limit}`);
    const may = permitsMany(s, actor);
    return Promise.all(rows.map((r) => approvalFor(s, actor, toView(r), may)));
  });
}

/** The approvals a list with the same filter shows, counted past any page (anyone who may list them may count them). */
export async function countApprovals({ db }: DomainDeps, input: ApprovalsFilter): Promise<ApprovalCount> {
  const where = filtered(input);
  return { count: await db.read((s) => countOf(s, sql`${SELECT_VIEW} ${where}`)) };
}

export async function pendingApprovals(s: Sql, sessionPk: number): Promise<ApprovalView[]> {
  return (await s.all<ApprovalWithSession>(sql`${SELECT_VIEW} WHERE a."sessionPk" = ${sessionPk} AND a."status" = 'pending' ORDER BY a."id"`)).map(toView);
}

/** Cancels every pending approval of a session whose process is gone (nobody is waiting for them). */
export async function cancelPending(tx: WriteTx, sessionPk: number, why: string): Promise<void> {
  for (const a of await pendingApprovals(tx, sessionPk)) await settleApproval(tx, a.id, "cancelled", "system", why);
}
