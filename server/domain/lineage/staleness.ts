/**
 * Staleness as writes and events (docs/domain.md#staleness). `invalidate_downstream` marks the current versions below an
 * artifact (a mark counts only while the marked version stays current), and a version bump tells
 * `artifact_stale` listeners which artifacts it left behind. Both run in the caller's transaction,
 * so marks and events commit or roll back with the change that caused them.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql, type SqlValue } from "../../db/sql.ts";
import type { ArtifactVersionRow } from "../../db/rows.ts";
import { formatRef } from "../artifacts/refs.ts";
import { artifactPk, currentDescendants, versionSeqs, type Descendant } from "./graph.ts";

type StaleCause = { kind: "invalidated"; by: string; source: string } | { kind: "superseded"; source: string; previous: number; current: number };

async function emitStale(tx: WriteTx, team: string, d: Descendant, reason: string, cause: StaleCause): Promise<void> {
  await tx.emit({
    teamId: team,
    type: "artifact.stale",
    subject: `artifact:${formatRef(d)}`,
    payload: { artifactId: d.artifactId, version: d.version, reason, cause },
  });
}

/**
 * Marks the current version of every artifact downstream of `artifactId` (not the artifact
 * itself) and emits `artifact.stale` once per newly marked version. Returns the newly marked refs.
 */
export async function invalidateDownstream(tx: WriteTx, team: string, artifactId: string, reason: string, markedBy: string): Promise<string[]> {
  const pk = await artifactPk(tx, team, artifactId, "artifactId");
  const marked: string[] = [];
  for (const d of await currentDescendants(tx, team, pk, await versionSeqs(tx, pk))) {
    const r = await tx.run(
      sql`INSERT INTO "StaleMark" ("teamId","seq","reason","markedBy","causedBy","at") VALUES (${team},${d.seq},${reason},${markedBy},${tx.cause?.eventId ?? null},${tx.now}) ON CONFLICT DO NOTHING`,
    );
    // Already marked: the first mark stands, and its event was emitted back then.
    if (r.changes === 0) continue;
    await emitStale(tx, team, d, reason, { kind: "invalidated", by: markedBy, source: artifactId });
    marked.push(formatRef(d));
  }
  return marked;
}

/**
 * SQL true when an active pipeline of the team `teamId` (a value, or an SQL expression as a fragment) has an
 * `artifact_stale` rule. `triggers` is space-separated; `_` in LIKE matches any character, which no other trigger name
 * can use to match.
 */
export const staleListenersOf = (teamId: SqlValue) =>
  sql`EXISTS (SELECT 1 FROM "Pipeline" p WHERE p."teamId" = ${teamId} AND p."status" = 'active' AND ' ' || p."triggers" || ' ' LIKE '% artifact_stale %')`;

/**
 * After `artifactId` moved on from the version at `previousSeq` to `newVersion`: emits
 * `artifact.stale` for every artifact whose current version descends from that previous version.
 * The caller calls it only when a pipeline listens (`staleListenersOf`, which a publish asks with
 * its artifact's row): nobody else acts on these events, and a publish should not pay for a
 * downstream walk nobody needs. Returns the refs it emitted for.
 */
export async function emitStaleOnBump(tx: WriteTx, team: string, artifactId: string, previousSeq: number, newVersion: number): Promise<string[]> {
  const previous = await tx.get<Pick<ArtifactVersionRow, "artifactPk" | "version">>(
    sql`SELECT "artifactPk","version" FROM "ArtifactVersion" WHERE "seq" = ${previousSeq}`,
  );
  if (!previous) throw new Error(`emitStaleOnBump: no version with seq ${previousSeq}`);
  const reason = `${artifactId}@v${previous.version} was superseded by ${artifactId}@v${newVersion}`;
  const cause: StaleCause = { kind: "superseded", source: artifactId, previous: previous.version, current: newVersion };
  const stale = await currentDescendants(tx, team, previous.artifactPk, [previousSeq]);
  for (const d of stale) await emitStale(tx, team, d, reason, cause);
  return stale.map(formatRef);
}

/** The version that was current before `version` was published, if any was active. */
export async function previousActiveSeq(s: Sql, artifactPk: number, version: number): Promise<number | undefined> {
  const row = await s.get<Pick<ArtifactVersionRow, "seq">>(
    sql`SELECT "seq" FROM "ArtifactVersion" WHERE "artifactPk" = ${artifactPk} AND "status" = 'active' AND "version" < ${version} ORDER BY "version" DESC LIMIT 1`,
  );
  return row?.seq;
}
