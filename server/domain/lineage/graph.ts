/**
 * Reading the lineage graph (docs/domain.md#lineage). Edges run from input versions to the versions derived from
 * them (LineageEdge: 'derived' from derivedFrom, 'contract' linked when a contract completed). An
 * artifact's current version is its newest active one. Walks never enter archived artifacts: an
 * archived artifact shows up only where a caller names it.
 */
import type { Sql } from "../../db/connection.ts";
import type { ArtifactRow, ArtifactVersionRow, LineageEdgeRow } from "../../db/rows.ts";
import { DomainError, notFound } from "../../errors.ts";
import { VersionStatus } from "../../../lib/api/artifacts.ts";
import { LineageEdge, MAX_LINEAGE_DEPTH, type LineageDirection } from "../../../lib/api/lineage.ts";
import { formatRef, type PinnedRef } from "../artifacts/refs.ts";
import { inList, sql } from "../../db/sql.ts";

/** `v` is its artifact's newest active version (by version or by seq: the two grow together). */
const IS_CURRENT = sql`v."status" = 'active' AND NOT EXISTS (SELECT 1 FROM "ArtifactVersion" n
  WHERE n."artifactPk" = v."artifactPk" AND n."status" = 'active' AND n."version" > v."version")`;

/** Code-point order: ids sort the same everywhere, whatever the locale. */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function groupBy<T, K, V>(items: Iterable<T>, keyOf: (t: T) => K, valueOf: (t: T) => V): Map<K, V[]> {
  const out = new Map<K, V[]>();
  for (const item of items) {
    const list = out.get(keyOf(item));
    if (list) list.push(valueOf(item));
    else out.set(keyOf(item), [valueOf(item)]);
  }
  return out;
}

export type ResolvedRef = PinnedRef & Pick<ArtifactVersionRow, "artifactPk">;

/** The artifact's primary key, archived or not: naming an artifact reaches it either way. */
export async function artifactPk(s: Sql, team: string, artifactId: string, field: string): Promise<number> {
  const row = await s.get<Pick<ArtifactRow, "pk">>(sql`SELECT "pk" FROM "Artifact" WHERE "teamId" = ${team} AND "id" = ${artifactId}`);
  if (!row) throw notFound("artifact", artifactId, field);
  return row.pk;
}

/** `id@vN` is that version whatever its status; a bare `id` is the current version. */
export async function resolveRef(s: Sql, team: string, ref: string, field: string): Promise<ResolvedRef> {
  const [artifactId, v] = ref.split("@v");
  const pk = await artifactPk(s, team, artifactId, field);
  const row = await s.get<Pick<ArtifactVersionRow, "version" | "seq">>(
    v
      ? sql`SELECT "version","seq" FROM "ArtifactVersion" WHERE "artifactPk" = ${pk} AND "version" = ${Number(v)}`
      : sql`SELECT "version","seq" FROM "ArtifactVersion" WHERE "artifactPk" = ${pk} AND "status" = 'active' ORDER BY "version" DESC LIMIT 1`,
  );
  if (!row) {
    throw v
      ? notFound("artifact version", ref, field)
      : new DomainError("not_found", `${field}: artifact '${artifactId}' has no active version (all were rolled back)`, { field, rule: "active_version" });
  }
  return { artifactPk: pk, artifactId, version: row.version, seq: row.seq };
}

/**
 * Every version reachable from `start` within `maxDepth` hops, with its fewest hops. UNION keeps
 * each (version, depth) pair once, so a level never holds a version twice and the walk stays
 * polynomial on diamond-shaped graphs; the depth bound ends it even on a cycle (contract links
 * can point from a newer input to an older output).
 */
export async function walk(s: Sql, team: string, start: number[], direction: LineageDirection, maxDepth: number): Promise<Map<number, number>> {
  const [near, far] = direction === "downstream" ? [sql`"fromSeq"`, sql`"toSeq"`] : [sql`"toSeq"`, sql`"fromSeq"`];
  const rows = await s.all<Pick<ArtifactVersionRow, "seq"> & { depth: number }>(
    sql`WITH RECURSIVE walk("seq","depth") AS (
       SELECT "seq", 0 FROM "ArtifactVersion" WHERE "seq" IN ${inList(start)}
       UNION
       SELECT e.${far}, w."depth" + 1 FROM walk w
         JOIN "LineageEdge" e ON e.${near} = w."seq"
         JOIN "ArtifactVersion" v ON v."seq" = e.${far}
         JOIN "Artifact" a ON a."pk" = v."artifactPk"
       WHERE w."depth" < ${maxDepth} AND a."teamId" = ${team} AND a."archivedAt" IS NULL
     )
     SELECT "seq", MIN("depth") AS "depth" FROM walk GROUP BY "seq"`,
  );
  return new Map(rows.map((r) => [r.seq, r.depth]));
}

/**
 * The versions upstream of `start` through inputs that are their source's current version, with
 * their artifact's pk, `start` included: what decides whether those versions are stale. Archived
 * artifacts are not entered; UNION visits each version once, so a cycle ends the walk.
 */
export async function currentUpstream(s: Sql, team: string, start: Iterable<number>): Promise<Map<number, number>> {
  const rows = await s.all<Pick<ArtifactVersionRow, "seq"> & { pk: ArtifactVersionRow["artifactPk"] }>(
    sql`WITH RECURSIVE up("seq") AS (
       SELECT "seq" FROM "ArtifactVersion" WHERE "seq" IN ${inList(start)}
       UNION
       SELECT e."fromSeq" FROM up
         JOIN "LineageEdge" e ON e."toSeq" = up."seq"
         JOIN "ArtifactVersion" v ON v."seq" = e."fromSeq"
         JOIN "Artifact" a ON a."pk" = v."artifactPk"
       WHERE a."teamId" = ${team} AND a."archivedAt" IS NULL AND ${IS_CURRENT}
     )
     SELECT up."seq", v."artifactPk" AS "pk" FROM up JOIN "ArtifactVersion" v ON v."seq" = up."seq"`,
  );
  return new Map(rows.map((r) => [r.seq, r.pk]));
}

type VersionColumns = PinnedRef & Pick<ArtifactVersionRow, "publisher" | "sessionId" | "contractId" | "createdAt"> & Pick<ArtifactRow, "type" | "name">;

export type VersionInfo = VersionColumns & { status: VersionStatus; current: boolean };

export async function loadVersions(s: Sql, seqs: Iterable<number>): Promise<Map<number, VersionInfo>> {
  const rows = await s.all<VersionColumns & Pick<ArtifactVersionRow, "status"> & { current: number }>(
    sql`SELECT v."seq", a."id" AS "artifactId", v."version", a."type", a."name", v."status", v."publisher", v."sessionId", v."contractId",
       v."createdAt", CASE WHEN ${IS_CURRENT} THEN 1 ELSE 0 END AS "current"
     FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE v."seq" IN ${inList(seqs)}`,
  );
  return new Map(rows.map((r) => [r.seq, { ...r, status: VersionStatus.parse(r.status), current: r.current === 1 }]));
}

export type EdgeInfo = Pick<LineageEdgeRow, "fromSeq" | "toSeq" | "contractId"> & { from: string; kind: LineageEdge["kind"] };
const EdgeKind = LineageEdge.shape.kind;

/** The recorded inputs of these versions, oldest edge first. */
export async function edgesInto(s: Sql, seqs: Iterable<number>): Promise<EdgeInfo[]> {
  const rows = await s.all<Pick<LineageEdgeRow, "fromSeq" | "toSeq" | "kind" | "contractId"> & Pick<PinnedRef, "artifactId" | "version">>(
    sql`SELECT e."fromSeq", e."toSeq", e."kind", e."contractId", a."id" AS "artifactId", v."version"
     FROM "LineageEdge" e JOIN "ArtifactVersion" v ON v."seq" = e."fromSeq" JOIN "Artifact" a ON a."pk" = v."artifactPk"
     WHERE e."toSeq" IN ${inList(seqs)} ORDER BY e."id"`,
  );
  return rows.map(({ artifactId, version, ...e }) => ({ ...e, kind: EdgeKind.parse(e.kind), from: formatRef({ artifactId, version }) }));
}

export type Descendant = PinnedRef & Pick<ArtifactRow, "type"> & { depth: number };

/**
 * Artifacts (other than `sourcePk`) whose current version descends from one of `start`, nearest
 * first. The walk goes through superseded versions too: a current version derived from an old
 * one still descends from everything upstream of it.
 */
export async function currentDescendants(s: Sql, team: string, sourcePk: number, start: number[]): Promise<Descendant[]> {
  const reached = await walk(s, team, start, "downstream", MAX_LINEAGE_DEPTH);
  const rows = await s.all<Omit<Descendant, "depth">>(
    sql`SELECT a."id" AS "artifactId", a."type", v."version", v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
     WHERE v."seq" IN ${inList(reached.keys())} AND v."artifactPk" <> ${sourcePk} AND ${IS_CURRENT}`,
  );
  return rows.map((r) => ({ ...r, depth: reached.get(r.seq)! })).sort((a, b) => a.depth - b.depth || byText(a.artifactId, b.artifactId));
}

/** Every version of an artifact: what "downstream of an artifact" starts from. */
export async function versionSeqs(s: Sql, artifactPk: number): Promise<number[]> {
  const rows = await s.all<Pick<ArtifactVersionRow, "seq">>(sql`SELECT "seq" FROM "ArtifactVersion" WHERE "artifactPk" = ${artifactPk} ORDER BY "seq"`);
  return rows.map((r) => r.seq);
}
