/**
 * The floor a publish is compared with: the same rows (artifact upsert, version row, lineage
 * edges, event) written with plain better-sqlite3 prepared statements, one IMMEDIATE transaction
 * per publish, with no validation and no resolution. Input versions come from an in-memory map,
 * so this is the cost of the writes alone.
 */
import type BetterSqlite3 from "better-sqlite3";
import { toSqlDate } from "../../server/db/sqlite.ts";
import type { ArtifactRow } from "../../server/db/rows.ts";
import { publishedPayload, type PublishSpec } from "./publish-workload.ts";

/** One raw publish at a time (the figure interleaves them with the service's); returns the version it wrote. */
export function rawPublisher(raw: BetterSqlite3.Database): (p: PublishSpec) => number {
  raw.prepare(`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('default',?,'{}')`).run(toSqlDate(new Date()));
  const upsertArtifact = raw.prepare(
    `INSERT INTO "Artifact" ("teamId","id","type","name","latestVersion","createdAt","updatedAt") VALUES ('default',?,?,?,1,?,?)
     ON CONFLICT ("teamId","id") DO UPDATE SET "latestVersion" = "latestVersion" + 1, "updatedAt" = excluded."updatedAt"
     RETURNING "pk", "latestVersion"`,
  );
  const insertVersion = raw.prepare(
    `INSERT INTO "ArtifactVersion" ("artifactPk","version","data","size","summary","publisher","sessionId","contractId","status","createdAt")
     VALUES (?,?,?,?,'','operator',NULL,NULL,'active',?)`,
  );
  const insertEdge = raw.prepare(`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind") VALUES (?,?,'derived')`);
  const insertEvent = raw.prepare(
    `INSERT INTO "Event" ("teamId","type","subject","payload","principal","causedBy","depth","at") VALUES ('default','artifact.published',?,?,'operator',NULL,0,?)`,
  );
  const seqOf = new Map<string, number>();

  const publish = raw.transaction((p: PublishSpec): number => {
    const now = toSqlDate(new Date());
    const text = JSON.stringify(p.data);
    const size = Buffer.byteLength(text);
    const a = upsertArtifact.get(p.id, p.type, p.id, now, now) as Pick<ArtifactRow, "pk" | "latestVersion">;
    const seq = Number(insertVersion.run(a.pk, a.latestVersion, text, size, now).lastInsertRowid);
    seqOf.set(`${p.artifact}@${a.latestVersion}`, seq);
    for (const input of p.pinned) insertEdge.run(seqOf.get(`${input.artifact}@${input.version}`), seq);
    const payload = publishedPayload(p, a.latestVersion, seq, size);
    insertEvent.run(`artifact:${p.id}@v${a.latestVersion}`, JSON.stringify(payload), now);
    return a.latestVersion;
  });
  return (p) => publish.immediate(p);
}
