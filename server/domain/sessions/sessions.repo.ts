/**
 * Session rows and the views every door returns. JSON columns are parsed here, once.
 */
import { stringsOf } from "../../db/rows.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import type { Param, Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { join, raw, sql, type Query } from "../../db/sql.ts";
import { notFound } from "../../errors.ts";
import {
  DEFAULT_APPROVAL_TIMEOUT_MS,
  Safety,
  type Preset,
  type SessionKind,
  type SessionStatus,
  type SessionView,
  type StoredSafety,
} from "../../../lib/api/sessions.ts";
import type { WorktreeRef } from "../../../lib/api/worktrees.ts";
import { refOf, worktreeOfSession } from "../worktrees/worktrees.repo.ts";

export type SessionRow = {
  pk: number;
  name: string;
  teamId: string;
  kind: SessionKind;
  status: SessionStatus;
  claudeSessionId: string | null;
  model: string | null;
  workDir: string;
  preset: Preset;
  allowedTools: string;
  systemPrompt: string | null;
  agent: string | null;
  maxBudgetUsd: number | null;
  safety: string;
  principal: string | null;
  pid: number | null;
  costUsd: number;
  turns: number;
  interactions: number;
  lastOutput: string | null;
  lastError: string | null;
  exitReason: string | null;
  /** What a person should know is wrong, in words (see problems.ts); null when nothing is. */
  problem: string | null;
  stalledAt: Date | null;
  parent: string | null;
  spawnedBy: string | null;
  sandbox: "bubblewrap" | "none" | null;
  queuedAt: Date | null;
  /** The hub that runs (or last ran) its process; null until one claims it (docs/hubs.md). */
  hubId: string | null;
  /** Its CLI config dir, once a hub launched it. */
  dir: string | null;
  /** The digest of the credentials its process runs on (docs/limits.md#accounts). */
  account: string | null;
  createdAt: Date;
  updatedAt: Date;
  lastEventAt: Date | null;
};

/** A session's `allowedTools` column (and an interaction's `toolsUsed`): JSON text of tool names or rules. */
export const toolsOf = stringsOf;
/** A JSON column holding an object whose fields the reader checks itself (the stored safety net, a tool's input). */
export const jsonObjectOf = (text: string): Record<string, unknown> => JsonObject.parse(JSON.parse(text));

export function safetyOf(row: Pick<SessionRow, "safety">): StoredSafety {
  const raw = jsonObjectOf(row.safety);
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
  const { pk: _pk, teamId, allowedTools, safety: _safety, hubId, dir: _dir, account: _account, ...rest } = row;
  return {
    ...rest,
    team: teamId,
    hub: hubId,
    allowedTools: toolsOf(allowedTools),
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
  const from = row.status;
  Object.assign(row, sets, { status: to, updatedAt: tx.now });
  if (from !== to) {
    await tx.emit({ teamId: row.teamId, type: "session.status_changed", subject: `session:${row.name}`, payload: { name: row.name, from, to, reason } });
  }
}
