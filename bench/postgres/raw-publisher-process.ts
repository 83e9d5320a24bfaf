/**
 * The two-hubs figure's baseline: publisher-process.ts's publishes written by a plain `pg` client, with no hub, in the
 * messages the hub's adapter sends: BEGIN with the team's locks pipelined with the artifact's upsert, the version, then
 * the event with the events lock, the NOTIFY and COMMIT in one message. No validation, no resolution. Same exchange
 * (./publisher-protocol.ts). What two of these gain over one is what this machine allows that shape of write.
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { appendAndEndMessage, beginWrite } from "../../server/db/postgres.ts";
import type { ArtifactRow, ArtifactVersionRow } from "../../server/db/rows.ts";
import { publishOf, publisherArgs, runPublisher } from "./publisher-protocol.ts";

const args = publisherArgs();
const { url, prefix, team } = args;
const client = new pg.Client({ connectionString: url, pipeline: true, options: "-c TimeZone=UTC" });
await client.connect();
await client.query(`INSERT INTO "Team" ("id","createdAt","settings") VALUES ($1, now(), '{}') ON CONFLICT DO NOTHING`, [team]);
const token = randomUUID();

async function publish(i: number): Promise<void> {
  const { id, data: values } = publishOf(prefix, i);
  const now = new Date();
  const data = JSON.stringify(values);
  const begun = client.query(beginWrite(team));
  const claim = client.query<Pick<ArtifactRow, "pk" | "latestVersion">>({
    name: "claim",
    text: `INSERT INTO "Artifact" ("teamId","id","type","name","latestVersion","createdAt","updatedAt") VALUES ($1,$2,'test-results',$2,1,$3,$3)
           ON CONFLICT ("teamId","id") DO UPDATE SET "latestVersion" = "Artifact"."latestVersion" + 1, "updatedAt" = excluded."updatedAt"
           RETURNING "pk", "latestVersion"`,
    values: [team, id, now],
  });
  const a = (await Promise.all([begun, claim]))[1].rows[0];
  const { seq } = (
    await client.query<Pick<ArtifactVersionRow, "seq">>({
      name: "version",
      text: `INSERT INTO "ArtifactVersion" ("artifactPk","version","data","size","summary","publisher","sessionId","contractId","status","createdAt")
             VALUES ($1,$2,$3,$4,'','operator',NULL,NULL,'active',$5) RETURNING "seq"`,
      values: [a.pk, a.latestVersion, data, Buffer.byteLength(data), now],
    })
  ).rows[0];
  const payload = JSON.stringify({ artifactId: id, version: a.latestVersion, seq, type: "test-results", name: id, publisher: "operator" });
  await client.query(
    appendAndEndMessage([[team, "artifact.published", `artifact:${id}@v${a.latestVersion}`, payload, "operator", null, 0, now]], "COMMIT", token),
  );
}

await runPublisher(publish, args);
await client.end();
