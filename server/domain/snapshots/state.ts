/**
 * A team's coordination state as plain JSON (docs/domain.md#snapshots): contracts with every column that restoring
 * them needs, the artifact index (pointers only, never data: versions are immutable, so a
 * version's seq is enough), pipelines, roster and gate counters, shaped as `SnapshotState` in lib/api/snapshots.ts.
 * Dates are ISO strings (docs/wire.md#snapshot-state).
 * Lists are ordered by id so two captures compare entry by entry.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import {
  jsonColumn,
  jsonColumnOrNull,
  type ArtifactRow,
  type ArtifactVersionRow,
  type ContractDependencyRow,
  type ContractRow,
  type PipelineRow,
} from "../../db/rows.ts";
import type { Dependency } from "../../../lib/api/contracts.ts";
import type { ArtifactPointer, ContractState, GateState, MemberState, PipelineState, SnapshotState, StateCounts } from "../../../lib/api/snapshots.ts";
import { maxSeq } from "../artifacts/refs.ts";
import { Criteria, Inputs, Outputs, Pinned, toDependency } from "../contracts/contracts.repo.ts";
import { readGate } from "../gate/gate-state.ts";
import { rosterOf } from "../roster/roster.service.ts";
import { captureKnowledge } from "../knowledge/snapshot.ts";

type Iso = string;

export type { ArtifactPointer, ContractState, GateState, MemberState, PipelineState, SnapshotState, StateCounts };

const iso = (d: Date | null): Iso | null => (d ? d.toISOString() : null);
export const date = (s: Iso | null): Date | null => (s === null ? null : new Date(s));

async function captureContracts(s: Sql, team: string): Promise<ContractState[]> {
  const rows = await s.all<ContractRow>(sql`SELECT * FROM "Contract" WHERE "teamId" = ${team} ORDER BY "id"`);
  const deps = await s.all<Pick<ContractDependencyRow, "contractPk" | "kind" | "targetId" | "minVersion">>(
    sql`SELECT "contractPk","kind","targetId","minVersion" FROM "ContractDependency" WHERE "teamId" = ${team} ORDER BY "id"`,
  );
  const byContract = new Map<number, Dependency[]>();
  for (const d of deps) {
    const list = byContract.get(d.contractPk);
    if (list) list.push(toDependency(d));
    else byContract.set(d.contractPk, [toDependency(d)]);
  }
  return rows.map((r) => ({
    pk: r.pk,
    id: r.id,
    title: r.title,
    description: r.description,
    assigner: r.assigner,
    assignee: r.assignee,
    inputs: jsonColumn(Inputs, r.inputs),
    dependencies: byContract.get(r.pk) ?? [],
    expectedOutputs: jsonColumn(Outputs, r.expectedOutputs),
    acceptanceCriteria: jsonColumn(Criteria, r.acceptanceCriteria),
    priority: r.priority,
    timeoutMs: r.timeoutMs,
    deadlineAt: iso(r.deadlineAt),
    maxRetries: r.maxRetries,
    retryCount: r.retryCount,
    status: r.status,
    statusReason: r.statusReason,
    windowStartSeq: r.windowStartSeq,
    pinnedInputs: jsonColumnOrNull(Pinned, r.pinnedInputs),
    outputs: jsonColumnOrNull(Pinned, r.outputs),
    startedAt: iso(r.startedAt),
    completedAt: iso(r.completedAt),
    createdAt: iso(r.createdAt)!,
    updatedAt: iso(r.updatedAt)!,
  }));
}

async function captureArtifacts(s: Sql, team: string): Promise<SnapshotState["artifacts"]> {
  const rows = await s.all<
    Pick<ArtifactRow, "pk" | "id"> & { archived: number; version: ArtifactVersionRow["version"] | null; seq: ArtifactVersionRow["seq"] | null }
  >(
    sql`SELECT a."pk", a."id", a."archivedAt" IS NOT NULL AS "archived", cv."version", cv."seq" FROM "Artifact" a
     LEFT JOIN "ArtifactVersion" cv ON cv."seq" = (SELECT v."seq" FROM "ArtifactVersion" v WHERE v."artifactPk" = a."pk" AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1)
     WHERE a."teamId" = ${team} ORDER BY a."id"`,
  );
  const rolledBack = await s.all<Pick<ArtifactVersionRow, "seq">>(
    sql`SELECT v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE a."teamId" = ${team} AND v."status" = 'rolled_back' ORDER BY v."seq"`,
  );
  return {
    index: rows.filter((r) => !r.archived).map((r) => ({ id: r.id, pk: r.pk, version: r.version, seq: r.seq })),
    archived: rows.filter((r) => r.archived).map((r) => r.id),
    rolledBackSeqs: rolledBack.map((r) => r.seq),
  };
}

async function capturePipelines(s: Sql, team: string): Promise<PipelineState[]> {
  const rows = await s.all<Pick<PipelineRow, "pk" | "id" | "status" | "rules" | "triggers" | "createdBy" | "fromEventId" | "createdAt" | "updatedAt">>(
    sql`SELECT "pk","id","status","rules","triggers","createdBy","fromEventId","createdAt","updatedAt" FROM "Pipeline" WHERE "teamId" = ${team} ORDER BY "id"`,
  );
  return rows.map((r) => ({ ...r, rules: jsonColumn(z.array(z.unknown()), r.rules), createdAt: iso(r.createdAt)!, updatedAt: iso(r.updatedAt)! }));
}

export async function captureState(s: Sql, team: string): Promise<SnapshotState> {
  const contracts = await captureContracts(s, team);
  const artifacts = await captureArtifacts(s, team);
  const pipelines = await capturePipelines(s, team);
  const roster = (await rosterOf(s, team)).map((m) => ({ ...m, joinedAt: iso(m.joinedAt)!, lastSeen: iso(m.lastSeen)! }));
  const gate = await readGate(s, team);
  const lastEvent = await s.get<{ id: number }>(sql`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`);
  return {
    format: 1,
    counts: { contracts: contracts.length, artifacts: artifacts.index.length, pipelines: pipelines.length, members: roster.length },
    team,
    maxSeq: await maxSeq(s),
    lastEventId: lastEvent!.id,
    contracts,
    artifacts,
    pipelines,
    roster,
    gate: { ...gate, lastSpawnAt: iso(gate.lastSpawnAt), lastGateAt: iso(gate.lastGateAt) },
    knowledge: await captureKnowledge(s, team),
  };
}
