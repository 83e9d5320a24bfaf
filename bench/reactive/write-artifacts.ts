/**
 * Writes the planned artifacts as publishArtifact would have left them (Artifact with its
 * latestVersion, one ArtifactVersion per version, a 'derived' LineageEdge per pinned input, an
 * artifact.published event per version), with prepared statements in one transaction per
 * publishing round. Setup, not a figure: the service path is what bench/core measures.
 */
import type BetterSqlite3 from "better-sqlite3";
import { toSqlDate } from "../../server/db/sqlite.ts";
import { check } from "../lib/check.ts";
import type { Random } from "../lib/random.ts";
import { ARTIFACTS, VERSIONS, artifactId, inputsOf, nameOf, publisherOf, seqOf, typeOf, type TeamPlan } from "./team-plan.ts";
import { versionData } from "./version-data.ts";

const DAY = 24 * 3600 * 1000;
/** The generated history: one publish every 10 s, ending a day before the contracts were written. */
const START = Date.now() - 14 * DAY;
export const publishedAt = (seq: number) => new Date(START + seq * 10_000);

export function writeArtifacts(raw: BetterSqlite3.Database, team: string, plan: TeamPlan, rng: Random): void {
  const insertArtifact = raw.prepare(`INSERT INTO "Artifact" ("teamId","id","type","name","latestVersion","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`);
  const insertVersion = raw.prepare(
    `INSERT INTO "ArtifactVersion" ("artifactPk","version","data","size","summary","publisher","sessionId","contractId","status","createdAt")
     VALUES (?,?,?,?,'',?,NULL,NULL,'active',?)`,
  );
  const insertEdge = raw.prepare(`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind") VALUES (?,?,'derived')`);
  const insertEvent = raw.prepare(
    `INSERT INTO "Event" ("teamId","type","subject","payload","principal","causedBy","depth","at") VALUES (?,'artifact.published',?,?,?,NULL,0,?)`,
  );

  let misplaced = 0;
  raw.transaction(() => {
    for (let a = 0; a < ARTIFACTS; a++) {
      const pk = insertArtifact.run(
        team,
        artifactId(a),
        typeOf(a),
        nameOf(a),
        VERSIONS,
        toSqlDate(publishedAt(seqOf(a, 1))),
        toSqlDate(publishedAt(seqOf(a, VERSIONS))),
      ).lastInsertRowid;
      if (pk !== a + 1) misplaced++;
    }
  })();
  const round = raw.transaction((version: number) => {
    for (let a = 0; a < ARTIFACTS; a++) {
      const id = artifactId(a);
      const text = JSON.stringify(versionData(typeOf(a), id, version, rng));
      const size = Buffer.byteLength(text);
      const at = toSqlDate(publishedAt(seqOf(a, version)));
      const seq = Number(insertVersion.run(a + 1, version, text, size, publisherOf(a), at).lastInsertRowid);
      if (seq !== seqOf(a, version)) misplaced++;
      const inputs = inputsOf(plan, a, version);
      for (const [source, v] of inputs) insertEdge.run(seqOf(source, v), seq);
      const payload = {
        artifactId: id,
        version,
        seq,
        type: typeOf(a),
        name: nameOf(a),
        publisher: publisherOf(a),
        contractId: null,
        derivedFrom: inputs.map(([source, v]) => `${artifactId(source)}@v${v}`),
        summary: "",
        size,
      };
      insertEvent.run(team, `artifact:${id}@v${version}`, JSON.stringify(payload), publisherOf(a), at);
    }
  });
  for (let version = 1; version <= VERSIONS; version++) round(version);
  check(misplaced === 0, `${misplaced} artifacts or versions did not get the primary key the plan expects (the database was not fresh?)`);
}
