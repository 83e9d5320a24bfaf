/**
 * Which artifacts are stale (docs/domain.md#staleness). An artifact's current version is stale when it was derived from
 * a version its source no longer has as current (superseded or rolled back), when one of its
 * current inputs is itself stale (transitively), or when invalidate_downstream marked that very
 * version. A few queries for the whole team (or for one upstream closure), then propagation in
 * memory: never a query per artifact, so it stays fast on large teams.
 *
 * Each reason names its root (the version that changed) and the path from the stale version up to
 * it, one step per input edge: a `derivedFrom` input, or a contract's pinned input linked when the
 * contract completed. There is one reason per input that carries staleness (plus one per mark), so
 * an answer grows with the graph's edges, never with the number of paths through it.
 */
import type { Sql } from "../../db/connection.ts";
import type { ArtifactRow, ArtifactVersionRow, LineageEdgeRow, StaleMarkRow } from "../../db/rows.ts";
import type { StaleArtifact, StaleReason, StaleStep } from "../../../lib/api/lineage.ts";
import { formatRef } from "../artifacts/refs.ts";
import { byText, currentUpstream, groupBy } from "./graph.ts";
import { inList, sql } from "../../db/sql.ts";

/** An artifact and its current version (null when every version was rolled back). */
type Head = Pick<ArtifactRow, "pk"> & {
  artifactId: ArtifactRow["id"];
  archived: number;
  seq: ArtifactVersionRow["seq"] | null;
  version: ArtifactVersionRow["version"] | null;
};
type InputEdge = Pick<LineageEdgeRow, "toSeq" | "fromSeq" | "kind" | "contractId"> & {
  fromPk: ArtifactVersionRow["artifactPk"];
  fromVersion: ArtifactVersionRow["version"];
  fromStatus: ArtifactVersionRow["status"];
};

/** Nearest root first; then by the input it comes through, the root and the kind, so answers are stable. */
const byNearest = (a: StaleReason, b: StaleReason) =>
  a.path.length - b.path.length || byText(a.path[0]?.input ?? "", b.path[0]?.input ?? "") || byText(a.root, b.root) || byText(a.kind, b.kind);

/**
 * Each artifact with its newest active version. Probing the (artifactPk, version) index from the
 * top reads one version row per artifact, where grouping over the active versions would read
 * every version row, artifact data and all.
 */
const HEADS = sql`SELECT a."pk", a."id" AS "artifactId", a."archivedAt" IS NOT NULL AS "archived", cv."seq", cv."version" FROM "Artifact" a
  LEFT JOIN "ArtifactVersion" cv ON cv."seq" = (SELECT v."seq" FROM "ArtifactVersion" v WHERE v."artifactPk" = a."pk" AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1)`;

/** Stale artifacts of a team keyed by artifact id, in id order. Archived artifacts are neither stale nor make others stale. */
export async function computeStale(s: Sql, team: string): Promise<Map<string, StaleArtifact>> {
  const heads = await s.all<Head>(sql`${HEADS} WHERE a."teamId" = ${team}`);
  return decide(s, team, heads, heads);
}

/**
 * The same verdicts as computeStale for the artifacts whose current versions are `seqs`, read
 * from their upstream closure only. Staleness reaches an artifact only through inputs that are
 * their source's current version, so the artifacts whose current versions are upstream of these
 * through such inputs decide it, and nothing else can. Other artifacts are left out of the answer.
 */
export async function staleAmong(s: Sql, team: string, seqs: Iterable<number>): Promise<Map<string, StaleArtifact>> {
  const closure = await currentUpstream(s, team, seqs);
  const heads = await s.all<Head>(sql`${HEADS} WHERE a."teamId" = ${team} AND a."pk" IN ${inList(closure.values())}`);
  return decide(
    s,
    team,
    heads.filter((h) => h.seq !== null && closure.has(h.seq)),
    heads,
  );
}

/**
 * Decides `candidates`, which must include every artifact whose staleness can flow into one of
 * them. `known` holds heads already loaded; the heads of other input sources, which only tell
 * whether an input is still its source's current version, are loaded here.
 */
async function decide(s: Sql, team: string, candidates: Head[], known: Head[]): Promise<Map<string, StaleArtifact>> {
  const byPk = new Map(known.map((h) => [h.pk, h]));
  const byCurrentSeq = new Map<number, Head>();
  for (const h of candidates) if (h.seq !== null && !h.archived) byCurrentSeq.set(h.seq, h);
  const edges = await s.all<InputEdge>(
    sql`SELECT e."toSeq", e."fromSeq", f."artifactPk" AS "fromPk", f."version" AS "fromVersion", f."status" AS "fromStatus", e."kind", e."contractId"
     FROM "LineageEdge" e JOIN "ArtifactVersion" f ON f."seq" = e."fromSeq" WHERE e."toSeq" IN ${inList(byCurrentSeq.keys())}`,
  );
  const unknown = new Set(edges.map((e) => e.fromPk).filter((pk) => !byPk.has(pk)));
  if (unknown.size) for (const h of await s.all<Head>(sql`${HEADS} WHERE a."pk" IN ${inList(unknown)}`)) byPk.set(h.pk, h);
  const marks = await s.all<Pick<StaleMarkRow, "seq" | "reason" | "markedBy">>(sql`SELECT "seq","reason","markedBy" FROM "StaleMark" WHERE "teamId" = ${team}`);

  const current = (h: Head) => formatRef({ artifactId: h.artifactId, version: h.version! });
  const step = (e: InputEdge, input: string): StaleStep => {
    const version = current(byCurrentSeq.get(e.toSeq)!);
    return e.kind === "contract" && e.contractId ? { version, input, via: "contract", contractId: e.contractId } : { version, input, via: "derivedFrom" };
  };
  const stale = new Map<number, StaleArtifact>();
  /** Adds a reason; true when this made the artifact stale. */
  const flag = (h: Head, reason: StaleReason): boolean => {
    const known = stale.get(h.pk);
    if (known) return (known.reasons.push(reason), false);
    stale.set(h.pk, { artifactId: h.artifactId, version: h.version!, reasons: [reason] });
    return true;
  };
  // Deriving v3 from one's own v2 supersedes v2; it does not make v3 stale. Sorted, so ties break the same way every time.
  const inputs = edges.filter((e) => e.fromPk !== byCurrentSeq.get(e.toSeq)!.pk).sort((a, b) => a.toSeq - b.toSeq || a.fromSeq - b.fromSeq);
  const readsCurrent = (e: InputEdge) => byPk.get(e.fromPk)!.seq === e.fromSeq;
  for (const e of inputs.filter((x) => !readsCurrent(x))) {
    const source = byPk.get(e.fromPk)!;
    const root = formatRef({ artifactId: source.artifactId, version: e.fromVersion });
    const path = [step(e, root)];
    flag(
      byCurrentSeq.get(e.toSeq)!,
      e.fromStatus === "active" && source.version !== null
        ? { kind: "superseded", root, current: current(source), path }
        : { kind: "rolled_back", root, current: source.version === null ? null : current(source), path },
    );
  }
  for (const m of marks) {
    const h = byCurrentSeq.get(m.seq);
    if (h) flag(h, { kind: "invalidated", root: current(h), reason: m.reason, markedBy: m.markedBy, path: [] });
  }
  // Source artifact → the input edges from its current version into other candidates' current versions.
  const consumers = groupBy(
    inputs.filter(readsCurrent),
    (e) => e.fromPk,
    (e) => e,
  );
  // Breadth-first from the directly stale: each artifact is queued once, so cycles end. A consumer
  // inherits the nearest reason its input has by then, one step longer.
  const queue = [...stale.keys()].map((pk) => byPk.get(pk)!);
  for (let i = 0; i < queue.length; i++) {
    const source = queue[i];
    const input = current(source);
    const nearest = stale.get(source.pk)!.reasons.reduce((a, b) => (byNearest(b, a) < 0 ? b : a));
    for (const e of consumers.get(source.pk) ?? []) {
      const target = byCurrentSeq.get(e.toSeq)!;
      const at = current(target);
      // Around a cycle (contract links can close one) the path would come back to the target: it is stale already, and that explains it.
      if (nearest.root === at || nearest.path.some((s) => s.version === at)) continue;
      if (flag(target, { ...nearest, path: [step(e, input), ...nearest.path] })) queue.push(target);
    }
  }
  return new Map(
    [...stale.values()].sort((a, b) => byText(a.artifactId, b.artifactId)).map((s) => [s.artifactId, { ...s, reasons: s.reasons.sort(byNearest) }]),
  );
}
