import type { Sql } from "../../db/connection.ts";
import { EMPTY, inList, join, sql } from "../../db/sql.ts";
import type { ArtifactRow, ArtifactVersionRow } from "../../db/rows.ts";
import { invalidField } from "../../errors.ts";

export type PinnedRef = Pick<ArtifactVersionRow, "version" | "seq"> & { artifactId: ArtifactRow["id"] };

/** A current version as `currentVersions` reads it: the artifact's type and the data only when asked for. */
export type CurrentVersion = PinnedRef & Partial<Pick<ArtifactRow, "type"> & Pick<ArtifactVersionRow, "data">>;

export function formatRef(r: Pick<PinnedRef, "artifactId" | "version">): string {
  return `${r.artifactId}@v${r.version}`;
}

/**
 * Resolves `id@vN` (that exact version, whatever its status) or `id` (the newest active version
 * now) to a pinned version. `field` names the input for the error.
 */
export async function pinRef(s: Sql, teamId: string, ref: string, field: string): Promise<PinnedRef> {
  return (await pinRefs(s, teamId, [ref], () => field))[0];
}

/** `pinRef` for many refs in at most two queries, in their order; the first that resolves to nothing is the error. */
export async function pinRefs(s: Sql, teamId: string, refs: readonly string[], fieldOf: (i: number) => string): Promise<PinnedRef[]> {
  const parsed = refs.map((ref) => {
    const [artifactId, v] = ref.split("@v");
    return { ref, artifactId, version: v ? Number(v) : null };
  });
  const exact = parsed.filter((p) => p.version !== null);
  const bare = parsed.filter((p) => p.version === null).map((p) => p.artifactId);
  const current = bare.length ? await currentVersions(s, teamId, bare) : new Map<string, PinnedRef>();
  const pinned = exact.length
    ? await s.all<PinnedRef>(
        sql`SELECT a."id" AS "artifactId", v."version", v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
         WHERE a."teamId" = ${teamId} AND (${join(
           exact.map((p) => sql`(a."id" = ${p.artifactId} AND v."version" = ${p.version})`),
           " OR ",
         )})`,
      )
    : [];
  return parsed.map(({ ref, artifactId, version }, i) => {
    const row = version === null ? current.get(artifactId) : pinned.find((r) => r.artifactId === artifactId && r.version === version);
    if (!row) {
      throw invalidField(
        fieldOf(i),
        "exists",
        version !== null
          ? `artifact version '${ref}' does not exist in team '${teamId}'`
          : `artifact '${artifactId}' has no active version in team '${teamId}'`,
        ref,
      );
    }
    return { artifactId, version: row.version, seq: row.seq };
  });
}

/** The newest active version of an artifact, if any. */
export async function currentVersion(s: Sql, teamId: string, artifactId: string) {
  return s.get<Pick<ArtifactVersionRow, "version" | "seq" | "publisher" | "createdAt">>(
    sql`SELECT v."version", v."seq", v."publisher", v."createdAt" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
     WHERE a."teamId" = ${teamId} AND a."id" = ${artifactId} AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1`,
  );
}

/** The newest active version of many artifacts at once, by id (absent: none); `withData` adds the artifact's type and the data. */
export async function currentVersions(s: Sql, teamId: string, artifactIds: Iterable<string>, withData = false): Promise<Map<string, CurrentVersion>> {
  // Each artifact's newest active version found by walking its (artifactPk, version) index down from the top, once per
  // artifact, rather than comparing every version with a MAX over all of them.
  const rows = await s.all<CurrentVersion>(
    sql`SELECT a."id" AS "artifactId", v."version", v."seq"${withData ? sql`, a."type", v."data"` : EMPTY} FROM "Artifact" a JOIN "ArtifactVersion" v ON v."seq" =
       (SELECT v2."seq" FROM "ArtifactVersion" v2 WHERE v2."artifactPk" = a."pk" AND v2."status" = 'active' ORDER BY v2."version" DESC LIMIT 1)
     WHERE a."teamId" = ${teamId} AND a."id" IN ${inList(artifactIds)}`,
  );
  return new Map(rows.map((r) => [r.artifactId, r]));
}

/** Highest publish sequence number so far: outputs count only when newer than a contract's window. */
export async function maxSeq(s: Sql): Promise<number> {
  return (await s.get<{ s: number }>(sql`SELECT COALESCE(MAX("seq"), 0) AS s FROM "ArtifactVersion"`))!.s;
}
