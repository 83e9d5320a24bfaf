/**
 * Putting a team's coordination state back (rollback, replay) or emptying it (reset, which
 * restores the empty state). Contracts and pipelines come back with their original pk: nothing
 * else points at a contract's pk, but the pipeline execution log is keyed by pipeline pk, so a
 * restored pipeline finds its log again. Watches are derived, so they are rebuilt, not stored.
 */
import { isDeepStrictEqual } from "node:util";
import type { WriteTx } from "../../db/database.ts";
import { inList, sql } from "../../db/sql.ts";
import type { ArtifactRow, ArtifactVersionRow, PipelineRow } from "../../db/rows.ts";
import { insertDependency, watchesOf } from "../contracts/contracts.service.ts";
import { writeGate } from "../gate/gate-state.ts";
import { insertMany } from "./insert-many.ts";
import { NO_KNOWLEDGE, restoreKnowledge } from "../knowledge/snapshot.ts";
import { date, type ContractState, type SnapshotState } from "./state.ts";

type Coordination = Pick<SnapshotState, "contracts" | "pipelines" | "roster" | "gate" | "knowledge">;

export const EMPTY_COORDINATION: Coordination = {
  contracts: [],
  pipelines: [],
  roster: [],
  gate: { gateCount: 0, gatesAtLastBatch: 0, spawnBatchCount: 0, lastSpawnAt: null, lastGateAt: null },
  knowledge: NO_KNOWLEDGE,
};

const OPEN = new Set(["pending", "ready", "in_progress"]);

const CONTRACT_COLUMNS = [
  "pk",
  "teamId",
  "id",
  "title",
  "description",
  "assigner",
  "assignee",
  "inputs",
  "expectedOutputs",
  "acceptanceCriteria",
  "priority",
  "timeoutMs",
  "deadlineAt",
  "maxRetries",
  "retryCount",
  "status",
  "statusReason",
  "windowStartSeq",
  "pinnedInputs",
  "outputs",
  "startedAt",
  "completedAt",
  "createdAt",
  "updatedAt",
] as const;

/**
 * Only contracts that differ are written: one that changed is deleted (its dependencies and
 * watches go with it, ON DELETE CASCADE) and inserted again with its pk; one that is the same
 * keeps its rows. `frozenMs` is how long the state sat in the snapshot: every restored open
 * contract gets its deadline moved by that much, so it has the time left it had at capture
 * instead of timing out at once.
 */
async function replaceContracts(tx: WriteTx, team: string, target: ContractState[], current: ContractState[], frozenMs: number): Promise<void> {
  const now = new Map(current.map((c) => [c.pk, c]));
  const kept = new Set(target.map((c) => c.pk));
  const changed = target.filter((c) => !isDeepStrictEqual(c, now.get(c.pk)));
  const gone = [...current.filter((c) => !kept.has(c.pk)), ...changed.filter((c) => now.has(c.pk))].map((c) => c.pk);
  if (gone.length) await tx.run(sql`DELETE FROM "Contract" WHERE "pk" IN ${inList(gone)}`);

  const deadline = (c: ContractState) => (c.deadlineAt && OPEN.has(c.status) ? new Date(Date.parse(c.deadlineAt) + frozenMs) : date(c.deadlineAt));
  const rows = changed.map((c) => [
    c.pk,
    team,
    c.id,
    c.title,
    c.description,
    c.assigner,
    c.assignee,
    JSON.stringify(c.inputs),
    JSON.stringify(c.expectedOutputs),
    JSON.stringify(c.acceptanceCriteria),
    c.priority,
    c.timeoutMs,
    deadline(c),
    c.maxRetries,
    c.retryCount,
    c.status,
    c.statusReason,
    c.windowStartSeq,
    c.pinnedInputs && JSON.stringify(c.pinnedInputs),
    c.outputs && JSON.stringify(c.outputs),
    date(c.startedAt),
    date(c.completedAt),
    date(c.createdAt),
    date(c.updatedAt),
  ]);
  await insertMany(tx, "Contract", CONTRACT_COLUMNS, rows);
  for (const c of changed) for (const d of c.dependencies) await insertDependency(tx, c.pk, team, d);
  const watches = changed.flatMap((c) => watchesOf(c).map((w) => [c.pk, team, w.kind, w.target]));
  await insertMany(tx, "ContractWatch", ["contractPk", "teamId", "kind", "target"], watches, true);

  if (frozenMs === 0) return;
  const rewritten = new Set(changed.map((c) => c.pk));
  for (const c of target) {
    if (!rewritten.has(c.pk) && c.deadlineAt && OPEN.has(c.status)) await tx.run(sql`UPDATE "Contract" SET "deadlineAt" = ${deadline(c)} WHERE "pk" = ${c.pk}`);
  }
}

/**
 * Same id: updated in place, pk included (one deleted and re-created since gets its original
 * pk back, and with it its log); missing: re-inserted with its original pk; extra: deleted.
 */
async function replacePipelines(tx: WriteTx, team: string, pipelines: SnapshotState["pipelines"]): Promise<void> {
  const wanted = new Set(pipelines.map((p) => p.id));
  const existing = new Set<string>();
  for (const row of await tx.all<Pick<PipelineRow, "pk" | "id">>(sql`SELECT "pk","id" FROM "Pipeline" WHERE "teamId" = ${team}`)) {
    if (wanted.has(row.id)) existing.add(row.id);
    else await tx.run(sql`DELETE FROM "Pipeline" WHERE "pk" = ${row.pk}`);
  }
  for (const p of pipelines) {
    const rules = JSON.stringify(p.rules);
    if (existing.has(p.id)) {
      await tx.run(
        sql`UPDATE "Pipeline" SET "pk" = ${p.pk}, "status" = ${p.status}, "rules" = ${rules}, "triggers" = ${p.triggers}, "createdBy" = ${p.createdBy}, "fromEventId" = ${p.fromEventId}, "createdAt" = ${date(p.createdAt)}, "updatedAt" = ${date(p.updatedAt)}
         WHERE "teamId" = ${team} AND "id" = ${p.id}`,
      );
    } else {
      await tx.run(
        sql`INSERT INTO "Pipeline" ("pk","teamId","id","status","rules","triggers","createdBy","fromEventId","createdAt","updatedAt") VALUES (${p.pk},${team},${p.id},${p.status},${rules},${p.triggers},${p.createdBy},${p.fromEventId},${date(p.createdAt)},${date(p.updatedAt)})`,
      );
    }
  }
}

async function replaceRoster(tx: WriteTx, team: string, roster: SnapshotState["roster"]): Promise<void> {
  await tx.run(sql`DELETE FROM "Member" WHERE "teamId" = ${team}`);
  for (const m of roster) {
    await tx.run(
      sql`INSERT INTO "Member" ("teamId","name","role","status","currentTask","sessionId","joinedAt","lastSeen") VALUES (${team},${m.name},${m.role},${m.status},${m.currentTask},${m.sessionId},${date(m.joinedAt)},${date(m.lastSeen)})`,
    );
  }
}

/**
 * Contracts (with dependencies and watches), pipelines, roster, gate counters and team knowledge become exactly
 * `target`; `current` is the team's state now, captured in the same transaction.
 */
export async function restoreCoordination(
  tx: WriteTx,
  team: string,
  target: Coordination,
  current: Pick<SnapshotState, "contracts">,
  frozenMs: number,
): Promise<void> {
  await replaceContracts(tx, team, target.contracts, current.contracts, frozenMs);
  await replacePipelines(tx, team, target.pipelines);
  await replaceRoster(tx, team, target.roster);
  const g = target.gate;
  await writeGate(tx, team, {
    gateCount: g.gateCount,
    gatesAtLastBatch: g.gatesAtLastBatch,
    spawnBatchCount: g.spawnBatchCount,
    lastSpawnAt: date(g.lastSpawnAt),
    lastGateAt: date(g.lastGateAt),
  });
  if (target.knowledge) await restoreKnowledge(tx, team, target.knowledge);
}

export type VersionChange = { artifactId: string; version: number };

/**
 * Version statuses and archive marks as they were at capture: versions published since then
 * (seq > maxSeq) are rolled back, kept and still readable by number; latestVersion is left
 * alone, so numbering continues after them. Older versions get their captured status back:
 * `rolledBackNow` (the team's rolled-back seqs now, from the automatic snapshot) tells which
 * differ, so only changed rows are touched and no query scans every version of the team.
 */
export async function restoreArtifacts(
  tx: WriteTx,
  team: string,
  target: Pick<SnapshotState, "maxSeq" | "artifacts">,
  rolledBackNow: number[],
): Promise<{ rolledBack: VersionChange[]; reactivated: VersionChange[] }> {
  const wasRolledBack = new Set(target.artifacts.rolledBackSeqs);
  const isRolledBack = new Set(rolledBackNow);
  const toRollBack = target.artifacts.rolledBackSeqs.filter((seq) => !isRolledBack.has(seq));
  const toReactivate = rolledBackNow.filter((seq) => seq <= target.maxSeq && !wasRolledBack.has(seq));
  const teamPks = sql`SELECT "pk" FROM "Artifact" WHERE "teamId" = ${team}`;
  type Changed = Pick<ArtifactVersionRow, "artifactPk" | "version">;
  const rolledBack = [
    ...(await tx.all<Changed>(
      sql`UPDATE "ArtifactVersion" SET "status" = 'rolled_back' WHERE "seq" > ${target.maxSeq} AND "status" = 'active' AND "artifactPk" IN (${teamPks}) RETURNING "artifactPk","version"`,
    )),
    ...(await tx.all<Changed>(
      sql`UPDATE "ArtifactVersion" SET "status" = 'rolled_back' WHERE "seq" IN ${inList(toRollBack)} RETURNING "artifactPk","version"`,
    )),
  ];
  const reactivated = await tx.all<Changed>(
    sql`UPDATE "ArtifactVersion" SET "status" = 'active' WHERE "seq" IN ${inList(toReactivate)} RETURNING "artifactPk","version"`,
  );

  const archived = inList(target.artifacts.archived);
  await tx.run(sql`UPDATE "Artifact" SET "archivedAt" = ${tx.now} WHERE "teamId" = ${team} AND "archivedAt" IS NULL AND "id" IN ${archived}`);
  await tx.run(sql`UPDATE "Artifact" SET "archivedAt" = NULL WHERE "teamId" = ${team} AND "archivedAt" IS NOT NULL AND "id" NOT IN ${archived}`);

  const ids = new Map((await tx.all<Pick<ArtifactRow, "pk" | "id">>(sql`SELECT "pk","id" FROM "Artifact" WHERE "teamId" = ${team}`)).map((a) => [a.pk, a.id]));
  const named = (rows: Changed[]) =>
    rows
      .map((r) => ({ artifactId: ids.get(r.artifactPk)!, version: r.version }))
      .sort((a, b) => (a.artifactId === b.artifactId ? a.version - b.version : a.artifactId < b.artifactId ? -1 : 1));
  return { rolledBack: named(rolledBack), reactivated: named(reactivated) };
}
