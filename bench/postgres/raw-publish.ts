/**
 * The floor a publish on PostgreSQL is compared with: the same rows as bench/core/raw-publish.ts (artifact upsert,
 * version row, lineage edges, event) written with plain `pg` statements on one connection, one transaction per
 * publish under the hub's write lock, with no validation and no resolution.
 */
import pg from "pg";
import { WRITE_LOCK_KEY } from "../../server/db/postgres.ts";
import type { ArtifactRow, ArtifactVersionRow } from "../../server/db/rows.ts";
import { check } from "../lib/check.ts";
import { publishedPayload, type Workload } from "../core/publish-workload.ts";

export async function rawPgPublishes(url: string, w: Workload): Promise<Float64Array> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('default', now(), '{}')`);
    const seqOf = new Map<string, number>();
    const latencies = new Float64Array(w.publishes.length);
    let wrongVersions = 0;
    for (const [i, p] of w.publishes.entries()) {
      const t0 = performance.now();
      await client.query(`BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
      const now = new Date();
      const text = JSON.stringify(p.data);
      const size = Buffer.byteLength(text);
      const a = (
        await client.query<Pick<ArtifactRow, "pk" | "latestVersion">>(
          `INSERT INTO "Artifact" ("teamId","id","type","name","latestVersion","createdAt","updatedAt") VALUES ('default',$1,$2,$3,1,$4,$4)
           ON CONFLICT ("teamId","id") DO UPDATE SET "latestVersion" = "Artifact"."latestVersion" + 1, "updatedAt" = excluded."updatedAt"
           RETURNING "pk", "latestVersion"`,
          [p.id, p.type, p.id, now],
        )
      ).rows[0];
      const seq = (
        await client.query<Pick<ArtifactVersionRow, "seq">>(
          `INSERT INTO "ArtifactVersion" ("artifactPk","version","data","size","summary","publisher","sessionId","contractId","status","createdAt")
           VALUES ($1,$2,$3,$4,'','operator',NULL,NULL,'active',$5) RETURNING "seq"`,
          [a.pk, a.latestVersion, text, size, now],
        )
      ).rows[0].seq;
      seqOf.set(`${p.artifact}@${a.latestVersion}`, seq);
      for (const input of p.pinned)
        await client.query(`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind") VALUES ($1,$2,'derived')`, [
          seqOf.get(`${input.artifact}@${input.version}`),
          seq,
        ]);
      const payload = publishedPayload(p, a.latestVersion, seq, size);
      await client.query(
        `INSERT INTO "Event" ("teamId","type","subject","payload","principal","causedBy","depth","at") VALUES ('default','artifact.published',$1,$2,'operator',NULL,0,$3)`,
        [`artifact:${p.id}@v${a.latestVersion}`, JSON.stringify(payload), now],
      );
      await client.query("COMMIT");
      latencies[i] = performance.now() - t0;
      if (a.latestVersion !== p.version) wrongVersions++;
    }
    check(wrongVersions === 0, `raw pg baseline: ${wrongVersions} publishes got an unexpected version number`);
    return latencies;
  } finally {
    await client.end();
  }
}
