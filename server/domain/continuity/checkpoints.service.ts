/**
 * Checkpoints (docs/domain.md#continuity): where a principal's work stood at a Claude Code hook, and the event log
 * position at that moment, so the next briefing can say what changed since. A checkpoint is
 * always the caller's own. Recording one emits no event: Stop fires after every turn, and the
 * log (with /ws and pipelines behind it) is for coordination, not for per-turn bookkeeping.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type CheckpointRow } from "../../db/rows.ts";
import {
  CheckpointState,
  type CheckpointKind,
  type CheckpointView,
  type LatestCheckpointInput,
  type RecordCheckpointInput,
} from "../../../lib/api/continuity.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";

// Only the latest matters to a briefing; a bounded tail keeps a few days of history per principal.
export const KEPT_CHECKPOINTS = 100;

const toView = (r: CheckpointRow): CheckpointView => ({
  id: r.id,
  team: r.teamId,
  principal: r.principal,
  claudeSessionId: r.claudeSessionId,
  kind: r.kind as CheckpointKind,
  state: jsonColumn(CheckpointState, r.state),
  lastEventId: r.lastEventId,
  at: r.at,
});

/** That Claude session's latest checkpoint when it has one (a resumed session), else the principal's latest. */
export async function findLatest(s: Sql, team: string, principal: string, claudeSessionId?: string): Promise<CheckpointView | null> {
  const base = sql`SELECT * FROM "Checkpoint" WHERE "teamId" = ${team} AND "principal" = ${principal}`;
  const own = claudeSessionId ? await s.get<CheckpointRow>(sql`${base} AND "claudeSessionId" = ${claudeSessionId} ORDER BY "id" DESC LIMIT 1`) : undefined;
  const row = own ?? (await s.get<CheckpointRow>(sql`${base} ORDER BY "id" DESC LIMIT 1`));
  return row ? toView(row) : null;
}

export async function currentEventId(s: Sql): Promise<number> {
  return (await s.get<{ id: number }>(sql`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`))!.id;
}

export async function recordCheckpointInTx(tx: WriteTx, actor: Principal, input: RecordCheckpointInput): Promise<CheckpointView> {
  await ensureTeam(tx, input.team);
  const row = await tx.get<CheckpointRow>(
    sql`INSERT INTO "Checkpoint" ("teamId","principal","claudeSessionId","kind","state","lastEventId","at") VALUES (${input.team},${actor.name},${input.claudeSessionId ?? null},${input.kind},${JSON.stringify(input.state ?? {})},${await currentEventId(tx)},${tx.now}) RETURNING *`,
  );
  await tx.run(
    sql`DELETE FROM "Checkpoint" WHERE "teamId" = ${input.team} AND "principal" = ${actor.name} AND "id" <= (
       SELECT "id" FROM "Checkpoint" WHERE "teamId" = ${input.team} AND "principal" = ${actor.name} ORDER BY "id" DESC LIMIT 1 OFFSET ${KEPT_CHECKPOINTS})`,
  );
  return toView(row!);
}

export async function recordCheckpoint({ db }: DomainDeps, actor: Principal, input: RecordCheckpointInput): Promise<CheckpointView> {
  return db.write("checkpoint.record", actor.name, (tx) => recordCheckpointInTx(tx, actor, input));
}

/** Whose checkpoints a read is about: the caller's own, or, for an operator or the team's lead, the member it names. */
export async function subjectOf(s: Sql, actor: Principal, team: string, member: string | undefined): Promise<string> {
  if (member === undefined || member === actor.name) return actor.name;
  await authorize(s, actor, "continuity.read", { team, owners: [member], label: `'${member}'` });
  return member;
}

export async function latestCheckpoint({ db }: DomainDeps, actor: Principal, input: LatestCheckpointInput): Promise<{ checkpoint: CheckpointView | null }> {
  const checkpoint = await db.read(async (s) => findLatest(s, input.team, await subjectOf(s, actor, input.team, input.member), input.claudeSessionId));
  return { checkpoint };
}
