/** Reading sessions: status, last output, list, history, transcript. */
import type {
  HistoryView,
  ListSessionsInput,
  OutputView,
  SessionRef,
  SessionStatusView,
  SessionView,
  TranscriptEntryView,
  TranscriptInput,
  TranscriptView,
  Violation,
} from "../../../lib/api/sessions.ts";
import type { Sql } from "../../db/connection.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { approvalFor, pendingApprovals } from "./approvals.ts";
import { permitsMany, type Permits } from "../auth/capabilities.ts";
import { authorizeSession, ownsSession } from "./ownership.ts";
import { interactionView, runningInteraction, type InteractionRow } from "./interactions.ts";
import { requireSession, viewOf, type SessionRow } from "./sessions.repo.ts";

/** What a session said is its owners' (docs/security.md#capabilities): others see its state, not its output. */
async function shownTo(sql: Sql, actor: Principal, s: SessionRow, may: Permits): Promise<SessionView> {
  const view = await viewOf(sql, s);
  return (await ownsSession(sql, actor, s, may)) ? view : { ...view, lastOutput: null, outputHidden: true };
}

export async function sessionStatus({ db }: DomainDeps, actor: Principal, input: SessionRef): Promise<SessionStatusView> {
  return db.read(async (sql) => {
    const s = await requireSession(sql, input.name);
    const running = await runningInteraction(sql, s.pk);
    const violations = await sql.all<Violation>(`SELECT "id","kind","detail","at" FROM "SafetyViolation" WHERE "sessionPk" = ? ORDER BY "id"`, [s.pk]);
    const may = permitsMany(sql, actor);
    const approvals = await Promise.all((await pendingApprovals(sql, s.pk)).map((a) => approvalFor(sql, actor, a, may)));
    const owned = await ownsSession(sql, actor, s, may);
    const shown = running && !owned ? { ...interactionView(running), prompt: "", response: null } : running && interactionView(running);
    return { ...(await shownTo(sql, actor, s, may)), running: shown || null, approvals, violations };
  });
}

/** The last response (`output`, docs/domain.md#operations): the newest finished interaction's text. */
export async function lastOutput({ db }: DomainDeps, actor: Principal, input: SessionRef): Promise<OutputView> {
  return db.read(async (sql) => {
    const s = await requireSession(sql, input.name);
    await authorizeSession(sql, actor, "session.read", s);
    const last = await sql.get<InteractionRow>(
      `SELECT * FROM "Interaction" WHERE "sessionPk" = ? AND "status" NOT IN ('queued','running','cancelled') ORDER BY "n" DESC LIMIT 1`,
      [s.pk],
    );
    return { name: s.name, status: s.status, output: last?.response ?? s.lastOutput, interaction: last ? interactionView(last) : null };
  });
}

export async function listSessions({ db }: DomainDeps, actor: Principal, input: ListSessionsInput): Promise<SessionView[]> {
  return db.read(async (sql) => {
    const where: string[] = [];
    const params: string[] = [];
    if (input.team) {
      where.push(`"teamId" = ?`);
      params.push(input.team);
    }
    if (input.status) {
      where.push(`"status" = ?`);
      params.push(input.status);
    }
    const rows = await sql.all<SessionRow>(
      `SELECT * FROM "Session" ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY "createdAt" DESC, "pk" DESC LIMIT ?`,
      [...params, input.limit],
    );
    const may = permitsMany(sql, actor);
    return Promise.all(rows.map((r) => shownTo(sql, actor, r, may)));
  });
}

/** Every interaction, oldest first, with its cost, turns, duration and tools (`history`). */
export async function sessionHistory({ db }: DomainDeps, actor: Principal, input: SessionRef & { limit: number }): Promise<HistoryView> {
  return db.read(async (sql) => {
    const s = await requireSession(sql, input.name);
    await authorizeSession(sql, actor, "session.read", s);
    const rows = await sql.all<InteractionRow>(
      `SELECT * FROM (SELECT * FROM "Interaction" WHERE "sessionPk" = ? ORDER BY "n" DESC LIMIT ?) AS "newest" ORDER BY "n"`,
      [s.pk, input.limit],
    );
    return { name: s.name, costUsd: s.costUsd, turns: s.turns, interactions: rows.map(interactionView) };
  });
}

/** The stored stream, oldest first; `after` pages forward (and is how /ws clients catch up). */
export async function transcript({ db }: DomainDeps, actor: Principal, input: TranscriptInput): Promise<TranscriptView> {
  return db.read(async (sql) => {
    const s = await requireSession(sql, input.name);
    await authorizeSession(sql, actor, "session.read", s);
    const rows = await sql.all<Omit<TranscriptEntryView, "payload"> & { payload: string }>(
      `SELECT "id","interactionId","at","direction","type","subtype","payload" FROM "TranscriptEntry" WHERE "sessionPk" = ? AND "id" > ? ORDER BY "id" LIMIT ?`,
      [s.pk, input.after ?? 0, input.limit],
    );
    return { name: s.name, entries: rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown })) };
  });
}
