/** Reading sessions: status, last output, list, history, transcript. */
import {
  TranscriptEntryView,
  ViolationKind,
  type HistoryView,
  type ListSessionsInput,
  type OutputView,
  type SessionRef,
  type SessionStatusView,
  type SessionView,
  type TranscriptInput,
  type TranscriptView,
} from "../../../lib/api/sessions.ts";
import { JsonValue } from "../../../lib/api/common.ts";
import type { Sql } from "../../db/connection.ts";
import { EMPTY, join, sql, type Query } from "../../db/sql.ts";
import { jsonColumn, type InteractionRow, type SafetyViolationRow, type SessionRow, type TranscriptEntryRow } from "../../db/rows.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { approvalFor, pendingApprovals } from "./approvals.ts";
import { permitsMany, type Permits } from "../auth/capabilities.ts";
import { authorizeSession, ownsSession } from "./ownership.ts";
import { interactionView, runningInteraction } from "./interactions.ts";
import { requireSession, statusOf, viewOf } from "./sessions.repo.ts";

/** What a session said is its owners' (docs/security.md#capabilities): others see its state, not its output. */
async function shownTo(r: Sql, actor: Principal, s: SessionRow, may: Permits): Promise<SessionView> {
  const view = await viewOf(r, s);
  return (await ownsSession(r, actor, s, may)) ? view : { ...view, lastOutput: null, outputHidden: true };
}

export async function sessionStatus({ db }: DomainDeps, actor: Principal, input: SessionRef): Promise<SessionStatusView> {
  return db.read(async (r) => {
    const s = await requireSession(r, input.name);
    const running = await runningInteraction(r, s.pk);
    const violations = (
      await r.all<Pick<SafetyViolationRow, "id" | "kind" | "detail" | "at">>(
        sql`SELECT "id","kind","detail","at" FROM "SafetyViolation" WHERE "sessionPk" = ${s.pk} ORDER BY "id"`,
      )
    ).map((v) => ({ ...v, kind: ViolationKind.parse(v.kind) }));
    const may = permitsMany(r, actor);
    const approvals = await Promise.all((await pendingApprovals(r, s.pk)).map((a) => approvalFor(r, actor, a, may)));
    const owned = await ownsSession(r, actor, s, may);
    const shown = running && !owned ? { ...interactionView(running), prompt: "", response: null } : running && interactionView(running);
    return { ...(await shownTo(r, actor, s, may)), running: shown || null, approvals, violations };
  });
}

/** The last response (`output`, docs/domain.md#operations): the newest finished interaction's text. */
export async function lastOutput({ db }: DomainDeps, actor: Principal, input: SessionRef): Promise<OutputView> {
  return db.read(async (r) => {
    const s = await requireSession(r, input.name);
    await authorizeSession(r, actor, "session.read", s);
    const last = await r.get<InteractionRow>(
      sql`SELECT * FROM "Interaction" WHERE "sessionPk" = ${s.pk} AND "status" NOT IN ('queued','running','cancelled') ORDER BY "n" DESC LIMIT 1`,
    );
    return { name: s.name, status: statusOf(s), output: last?.response ?? s.lastOutput, interaction: last ? interactionView(last) : null };
  });
}

export async function listSessions({ db }: DomainDeps, actor: Principal, input: ListSessionsInput): Promise<SessionView[]> {
  return db.read(async (r) => {
    const where: Query[] = [];
    if (input.team) where.push(sql`"teamId" = ${input.team}`);
    if (input.status) where.push(sql`"status" = ${input.status}`);
    const rows = await r.all<SessionRow>(
      sql`SELECT * FROM "Session" ${where.length ? sql`WHERE ${join(where, " AND ")}` : EMPTY} ORDER BY "createdAt" DESC, "pk" DESC LIMIT ${input.limit}`,
    );
    const may = permitsMany(r, actor);
    return Promise.all(rows.map((row) => shownTo(r, actor, row, may)));
  });
}

/** Every interaction, oldest first, with its cost, turns, duration and tools (`history`). */
export async function sessionHistory({ db }: DomainDeps, actor: Principal, input: SessionRef & { limit: number }): Promise<HistoryView> {
  return db.read(async (r) => {
    const s = await requireSession(r, input.name);
    await authorizeSession(r, actor, "session.read", s);
    const rows = await r.all<InteractionRow>(
      sql`SELECT * FROM (SELECT * FROM "Interaction" WHERE "sessionPk" = ${s.pk} ORDER BY "n" DESC LIMIT ${input.limit}) AS "newest" ORDER BY "n"`,
    );
    return { name: s.name, costUsd: s.costUsd, turns: s.turns, interactions: rows.map(interactionView) };
  });
}

/** The stored stream, oldest first; `after` pages forward (and is how /ws clients catch up). */
export async function transcript({ db }: DomainDeps, actor: Principal, input: TranscriptInput): Promise<TranscriptView> {
  return db.read(async (r) => {
    const s = await requireSession(r, input.name);
    await authorizeSession(r, actor, "session.read", s);
    const rows = await r.all<Pick<TranscriptEntryRow, "id" | "interactionId" | "at" | "direction" | "type" | "subtype" | "payload">>(
      sql`SELECT "id","interactionId","at","direction","type","subtype","payload" FROM "TranscriptEntry" WHERE "sessionPk" = ${s.pk} AND "id" > ${input.after ?? 0} ORDER BY "id" LIMIT ${input.limit}`,
    );
    return {
      name: s.name,
      entries: rows.map((e) => ({ ...e, direction: TranscriptEntryView.shape.direction.parse(e.direction), payload: jsonColumn(JsonValue, e.payload) })),
    };
  });
}
