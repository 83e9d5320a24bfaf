/**
 * Eight OS processes publish 250 versions each of one artifact through the HTTP API at once:
 * every request succeeds and the versions are exactly 1..2000, with no gap and no duplicate.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { publisher } from "./helpers/publisher.ts";
import { query } from "./helpers/db-snapshot.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

describe("concurrent publishers", () => {
  it("8 processes × 250 publishes → versions exactly 1..2000, no failed request", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => publisher(hub.url, "contended", 250)));
    expect(new Set(results.map((r) => r.pid)).size).toBe(8);
    expect(results.flatMap((r) => r.failures)).toEqual([]);
    const acknowledged = results.flatMap((r) => r.versions).sort((a, b) => a - b);
    expect(acknowledged).toEqual(Array.from({ length: 2000 }, (_, i) => i + 1));
    // Each process saw its own versions strictly increasing.
    for (const r of results) expect(r.versions).toEqual([...r.versions].sort((a, b) => a - b));

    const stored = query<{ version: number }>(
      hub.dbFile,
      `SELECT v.version FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk WHERE a.id = 'contended' ORDER BY v.version`,
    );
    expect(stored.map((r) => r.version)).toEqual(acknowledged);
    const [{ n }] = query<{ n: number }>(
      hub.dbFile,
      `SELECT COUNT(*) AS n FROM Event WHERE type = 'artifact.published' AND subject LIKE 'artifact:contended@v%'`,
    );
    expect(n).toBe(2000);
  }, 180_000);

  it("an expectedVersion that is no longer current gets a conflict error and writes nothing", async () => {
    const ok = await api(hub, "POST", "/api/artifacts", { id: "guarded", type: "custom", data: { n: 1 }, expectedVersion: 0 });
    expect(ok.status).toBe(201);
    const stale = await api(hub, "POST", "/api/artifacts", { id: "guarded", type: "custom", data: { n: 2 }, expectedVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "conflict", details: { field: "expectedVersion", expected: 0, actual: 1 } });
    expect(stale.body.error.message).toBe("expectedVersion: artifact 'guarded' is at version 1, not the expected 0");
    const next = await api(hub, "POST", "/api/artifacts", { id: "guarded", type: "custom", data: { n: 2 }, expectedVersion: 1 });
    expect(next.body.version).toBe(2);
    expect(query(hub.dbFile, `SELECT v.version FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk WHERE a.id = 'guarded'`)).toHaveLength(2);
  });
});
