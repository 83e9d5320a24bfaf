/** What the database must hold after a publish workload, checked the same way for the hub and the raw baseline. */
import type BetterSqlite3 from "better-sqlite3";
import type { ContractRow } from "../../server/db/rows.ts";
import { check } from "../lib/check.ts";
import { artifactId, type Workload } from "./publish-workload.ts";

const count = (raw: BetterSqlite3.Database, sql: string) => (raw.prepare(sql).get() as { n: number }).n;

export function verifyPublished(raw: BetterSqlite3.Database, w: Workload, label: string): void {
  const artifacts = count(raw, `SELECT COUNT(*) AS n FROM "Artifact"`);
  check(artifacts === w.artifacts, `${label}: ${artifacts} artifacts, expected ${w.artifacts}`);
  const badVersions = count(
    raw,
    `SELECT COUNT(*) AS n FROM "Artifact" a WHERE a."latestVersion" != ${w.rounds}
       OR (SELECT COUNT(DISTINCT v."version") || ':' || MIN(v."version") || ':' || MAX(v."version") FROM "ArtifactVersion" v WHERE v."artifactPk" = a."pk") != '${w.rounds}:1:${w.rounds}'`,
  );
  check(badVersions === 0, `${label}: ${badVersions} artifacts do not have exactly versions 1..${w.rounds}`);
  const versions = count(raw, `SELECT COUNT(*) AS n FROM "ArtifactVersion"`);
  check(versions === w.publishes.length, `${label}: ${versions} versions, expected ${w.publishes.length}`);
  const expected = new Set(w.publishes.flatMap((p) => p.pinned.map((x) => `${artifactId(x.artifact)}@v${x.version}>${p.id}@v${p.version}`)));
  const edges = raw
    .prepare(
      `SELECT fa."id" || '@v' || fv."version" || '>' || ta."id" || '@v' || tv."version" AS edge FROM "LineageEdge" e
       JOIN "ArtifactVersion" fv ON fv."seq" = e."fromSeq" JOIN "Artifact" fa ON fa."pk" = fv."artifactPk"
       JOIN "ArtifactVersion" tv ON tv."seq" = e."toSeq" JOIN "Artifact" ta ON ta."pk" = tv."artifactPk" WHERE e."kind" = 'derived'`,
    )
    .pluck()
    .all() as string[];
  const unexpected = edges.filter((e) => !expected.has(e));
  check(
    edges.length === expected.size && unexpected.length === 0,
    `${label}: ${edges.length} derived lineage edges (${unexpected.length} unexpected, e.g. ${unexpected[0]}), expected ${expected.size}`,
  );
  const events = count(raw, `SELECT COUNT(*) AS n FROM "Event" WHERE "type" = 'artifact.published'`);
  check(events === w.publishes.length, `${label}: ${events} artifact.published events, expected ${w.publishes.length}`);
}

export function verifyContractsCompleted(raw: BetterSqlite3.Database, w: Workload): void {
  const open = raw.prepare(`SELECT "id", "status" FROM "Contract" WHERE "status" != 'completed' ORDER BY "pk"`).all() as Array<
    Pick<ContractRow, "id" | "status">
  >;
  const total = count(raw, `SELECT COUNT(*) AS n FROM "Contract"`);
  check(
    total === w.contracts.length && open.length === 0,
    `${open.length} of ${total} watching contracts did not complete, e.g. ${open[0]?.id} (${open[0]?.status})`,
  );
}
