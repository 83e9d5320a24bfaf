/**
 * Lineage queries (docs/domain.md#lineage): the DAG around a version, what a change to an artifact reaches, which
 * artifacts are stale, and the provenance trail of a version. Each runs in one read snapshot and
 * writes nothing. Archived artifacts appear only when the caller names them.
 */
import type { Sql } from "../../db/connection.ts";
import type { ArtifactReadRow, InteractionRow, SessionRow } from "../../db/rows.ts";
import {
  MAX_LINEAGE_DEPTH,
  type Audit,
  type AuditInput,
  type Impact,
  type ImpactInput,
  type LineageDirection,
  type LineageGraph,
  type LineageInput,
  type PublishingCost,
  type StaleArtifact,
  type StaleInput,
} from "../../../lib/api/lineage.ts";
import { formatRef } from "../artifacts/refs.ts";
import type { DomainDeps } from "../deps.ts";
import { codeRefsOf } from "../artifacts/code-ref.ts";
import { computeStale, staleAmong } from "./compute-stale.ts";
import { dependentContracts } from "./dependent-contracts.ts";
import { artifactPk, currentDescendants, edgesInto, groupBy, loadVersions, resolveRef, versionSeqs, walk } from "./graph.ts";
import { inList, sql } from "../../db/sql.ts";

/** The versions reachable from `seq`, nearest first, then in publish order. */
async function reachedVersions(s: Sql, team: string, seq: number, direction: LineageDirection, depth: number) {
  const reached = await walk(s, team, [seq], direction, depth);
  const versions = [...(await loadVersions(s, reached.keys())).values()]
    .map((v) => ({ ...v, depth: reached.get(v.seq)! }))
    .sort((a, b) => a.depth - b.depth || a.seq - b.seq);
  return { reached, versions };
}

/** The DAG reachable from one version in one direction: unique node keys, edges between nodes only. */
export async function lineage(deps: DomainDeps, input: LineageInput): Promise<LineageGraph> {
  return deps.db.read(async (s) => {
    const root = await resolveRef(s, input.team, input.ref, "ref");
    const { reached, versions } = await reachedVersions(s, input.team, root.seq, input.direction, input.depth);
    // Only the graph's current versions can be stale: decided from their upstream, not the whole team.
    const stale = await staleAmong(
      s,
      input.team,
      versions.filter((v) => v.current).map((v) => v.seq),
    );
    const keys = new Map(versions.map((v) => [v.seq, formatRef(v)]));
    const edges = (await edgesInto(s, reached.keys()))
      .filter((e) => reached.has(e.fromSeq))
      .map((e) => ({ from: e.from, to: keys.get(e.toSeq)!, kind: e.kind, contractId: e.contractId }));
    const nodes = versions.map((v) => ({
      key: keys.get(v.seq)!,
      artifactId: v.artifactId,
      version: v.version,
      type: v.type,
      name: v.name,
      status: v.status,
      current: v.current,
      stale: v.current && stale.has(v.artifactId),
      publisher: v.publisher,
      createdAt: v.createdAt,
      depth: v.depth,
    }));
    return { root: formatRef(root), direction: input.direction, nodes, edges };
  });
}

/** What a change to an artifact reaches: artifacts whose current version descends from any of its versions, and the contracts relying on any of them. */
export async function impact(deps: DomainDeps, input: ImpactInput): Promise<Impact> {
  return deps.db.read(async (s) => {
    const pk = await artifactPk(s, input.team, input.id, "id");
    const descendants = await currentDescendants(s, input.team, pk, await versionSeqs(s, pk));
    return {
      artifactId: input.id,
      artifacts: descendants.map((d) => ({ artifactId: d.artifactId, type: d.type, currentVersion: d.version, depth: d.depth })),
      contracts: await dependentContracts(s, input.team, [input.id, ...descendants.map((d) => d.artifactId)]),
    };
  });
}

export async function staleArtifacts(deps: DomainDeps, input: StaleInput): Promise<StaleArtifact[]> {
  return deps.db.read(async (s) => [...(await computeStale(s, input.team)).values()]);
}

/** The session's interaction that was running when the version was published. */
async function publishingCost(s: Sql, session: string, at: Date): Promise<PublishingCost | null> {
  const row = await s.get<Pick<InteractionRow, "n" | "costUsd"> & { sessionCostUsd: SessionRow["costUsd"] }>(
    sql`SELECT i."n", i."costUsd", s."costUsd" AS "sessionCostUsd" FROM "Interaction" i JOIN "Session" s ON s."pk" = i."sessionPk"
     WHERE s."name" = ${session} AND i."startedAt" <= ${at} AND (i."endedAt" IS NULL OR i."endedAt" >= ${at}) AND i."status" <> 'queued' ORDER BY i."n" DESC LIMIT 1`,
  );
  return row ? { session, interaction: row.n, costUsd: row.costUsd, sessionCostUsd: row.sessionCostUsd } : null;
}

/** The provenance trail of a version: it and every version upstream of it, nearest first. */
export async function audit(deps: DomainDeps, input: AuditInput): Promise<Audit> {
  return deps.db.read(async (s) => {
    const root = await resolveRef(s, input.team, input.ref, "ref");
    const { reached, versions } = await reachedVersions(s, input.team, root.seq, "upstream", MAX_LINEAGE_DEPTH);
    const inputs = groupBy(
      await edgesInto(s, reached.keys()),
      (e) => e.toSeq,
      (e) => e.from,
    );
    const reads = await s.all<Pick<ArtifactReadRow, "seq" | "reader" | "at">>(
      sql`SELECT "seq","reader","at" FROM "ArtifactRead" WHERE "seq" IN ${inList(reached.keys())} ORDER BY "id"`,
    );
    const readers = groupBy(
      reads,
      (r) => r.seq,
      (r) => r,
    );
    const trail = versions.map((v) => ({
      artifactId: v.artifactId,
      version: v.version,
      type: v.type,
      status: v.status,
      publisher: v.publisher,
      sessionId: v.sessionId,
      contractId: v.contractId,
      publishedAt: v.createdAt,
      inputs: inputs.get(v.seq) ?? [],
      readers: (readers.get(v.seq) ?? []).map((r) => ({ reader: r.reader, version: v.version, at: r.at })),
      cost: null as PublishingCost | null,
      depth: v.depth,
    }));
    for (const entry of trail) if (entry.sessionId) entry.cost = await publishingCost(s, entry.sessionId, entry.publishedAt);
    const code = await codeRefsOf(
      s,
      versions.map((v) => v.seq),
    );
    return { root: formatRef(root), trail: trail.map((e, i) => ({ ...e, code: code.get(versions[i].seq) ?? null })) };
  });
}
