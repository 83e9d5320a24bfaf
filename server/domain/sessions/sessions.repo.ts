/**
 * Session rows and the views every door returns. JSON columns are parsed here, once.
 */
import { jsonColumn, stringsOf, type SessionRow } from "../../db/rows.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import type { Param, Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { join, raw, sql, type Query } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import { DEFAULT_APPROVAL_TIMEOUT_MS, Preset, Safety, SessionKind, SessionStatus, SessionView, type StoredSafety } from "../../../lib/api/sessions.ts";
import type { WorktreeRef } from "../../../lib/api/worktrees.ts";
import { refOf, worktreeOfSession } from "../worktrees/worktrees.repo.ts";

/** The status column as the state machine names it (./states.ts). */
export const statusOf = (row: Pick<SessionRow, "status">): SessionStatus => SessionStatus.parse(row.status);

/** The session's team: the column may be null, but insertSession always writes one. */
export const teamOf = (row: Pick<SessionRow, "teamId">): string => row.teamId!;

export function safetyOf(row: Pick<SessionRow, "safety">): StoredSafety {
  const raw = jsonColumn(JsonObject, row.safety);
  return { ...Safety.parse(raw), approvalTimeoutMs: typeof raw.approvalTimeoutMs === "number" ? raw.approvalTimeoutMs : DEFAULT_APPROVAL_TIMEOUT_MS };
}

async function worktreeRefOf(s: Sql, pk: number): Promise<WorktreeRef | null> {
  const w = await worktreeOfSession(s, pk);
  return w ? refOf(w) : null;
}

export async function viewOf(s: Sql, row: SessionRow): Promise<SessionView> {
  const counts = await s.get<{ queued: number; pending: number }>(
    sql`SELECT (SELECT COUNT(*) FROM "Interaction" WHERE "sessionPk" = ${row.pk} AND "status" = 'queued') AS queued,
            (SELECT COUNT(*) FROM "Approval" WHERE "sessionPk" = ${row.pk} AND "status" = 'pending') AS pending`,
  );
  // Its config dir is a path inside a hub's private data dir: no caller's business.
  const { pk: _pk, teamId: _teamId, kind, preset, allowedTools, safety: _safety, sandbox, hubId, dir: _dir, account: _account, ...rest } = row;
  return {
    ...rest,
    team: teamOf(row),
    kind: SessionKind.parse(kind),
    status: statusOf(row),
    preset: Preset.parse(preset),
    sandbox: SessionView.shape.sandbox.parse(sandbox),
    hub: hubId,
    allowedTools: stringsOf(allowedTools),
    safety: safetyOf(row),
    stalled: row.stalledAt !== null,
    queued: counts?.queued ?? 0,
    pendingApprovals: counts?.pending ?? 0,
    queuePosition: await queuePosition(s, row),
    worktree: await worktreeRefOf(s, row.pk),
  };
}

/**
 * Sessions a hub runs, as a condition on "Session" (docs/hubs.md#admission): those carrying its id. A process with no hub
 * id (`teamhub mcp` over stdio, a test's embedded domain) stands for the unowned ones.
 */
export const heldBy = (hub: string | null): Query => (hub === null ? sql`"hubId" IS NULL` : sql`"hubId" = ${hub}`);

/** A hub's admission queue: its own queued sessions and the unowned ones, which it admits by claiming them. */
export const queueOf = (hub: string | null): Query => (hub === null ? heldBy(null) : sql`("hubId" = ${hub} OR "hubId" IS NULL)`);

/** 1 for the next session its hub starts (or, unowned, the next unowned one any hub takes); null when the session is not queued. */
export async function queuePosition(s: Sql, row: Pick<SessionRow, "pk" | "status" | "queuedAt" | "hubId">): Promise<number | null> {
  if (row.status !== "queued" || !row.queuedAt) return null;
  const r = await s.get<{ n: number }>(
    sql`SELECT COUNT(*) AS n FROM "Session" WHERE "status" = 'queued' AND ${queueOf(row.hubId)} AND ("queuedAt" < ${row.queuedAt} OR ("queuedAt" = ${row.queuedAt} AND "pk" <= ${row.pk}))`,
  );
  return r?.n ?? null;
}

export async function findSession(s: Sql, name: string): Promise<SessionRow | undefined> {
  return s.get<SessionRow>(sql`SELECT * FROM "Session" WHERE "name" = ${name}`);
}

export async function requireSession(s: Sql, name: string, field = "name"): Promise<SessionRow> {
  const row = await findSession(s, name);
  if (!row) throw notFound("session", name, field);
  return row;
}

export async function sessionByPk(s: Sql, pk: number): Promise<SessionRow | undefined> {
  return s.get<SessionRow>(sql`SELECT * FROM "Session" WHERE "pk" = ${pk}`);
}

/** Moves a session to a new status and logs the transition; the caller has checked it is allowed. */
export async function moveTo(tx: WriteTx, row: SessionRow, to: SessionStatus, reason: string | null, sets: Record<string, unknown> = {}): Promise<void> {
  const assignments = Object.entries(sets).map(([c, v]) => sql`, ${raw(`"${c}"`)} = ${v as Param}`);
  await tx.run(sql`UPDATE "Session" SET "status" = ${to}, "updatedAt" = ${tx.now}${join(assignments, "")} WHERE "pk" = ${row.pk}`);
  const from = statusOf(row);
  Object.assign(row, sets, { status: to, updatedAt: tx.now });
  if (from !== to) {
    await tx.emit({ teamId: row.teamId, type: "session.status_changed", subject: `session:${row.name}`, payload: { name: row.name, from, to, reason } });
  }
}
