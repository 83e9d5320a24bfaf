/**
 * kill -9 the hub in the middle of a publish storm, restart it: the database passes
 * PRAGMA integrity_check, every acknowledged publish is there, and nothing is half-written.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it, vi } from "vitest";
import { api, ROOT, startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";

let hub: HubProcess | undefined;
afterAll(async () => hub?.kill());

function storm(url: string, artifactId: string, ackFile: string) {
  const child = spawn(process.execPath, [path.join(ROOT, "e2e/helpers/publish-worker.mjs"), url, artifactId, "100000", ackFile], { stdio: "ignore" });
  return new Promise<void>((r) => child.once("exit", () => r()));
}

describe("crash safety", () => {
  it("keeps every acknowledged publish and no partial rows across kill -9", async () => {
    const dataDir = tempDataDir("crash");
    hub = await startHub(dataDir);
    const ackFile = path.join(dataDir, "acks.txt");
    fs.writeFileSync(ackFile, "");
    const workers = ["storm-a", "storm-b", "storm-c", "storm-a"].map((id) => storm(hub!.url, id, ackFile));
    // Complete lines only: a worker may be halfway through appending one.
    const acked = () => fs.readFileSync(ackFile, "utf8").split("\n").length - 1;
    await vi.waitFor(() => expect(acked()).toBeGreaterThanOrEqual(300), { timeout: 60_000, interval: 20 });
    await hub.kill("SIGKILL");
    await Promise.all(workers);

    const acks = fs
      .readFileSync(ackFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => l.split(" "));
    expect(acks.length).toBeGreaterThanOrEqual(300);

    hub = await startHub(dataDir);
    const db = new BetterSqlite3(hub.dbFile, { readonly: true });
    try {
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      expect(db.pragma("foreign_key_check")).toEqual([]);
    } finally {
      db.close();
    }

    const stored = new Map(
      query<{ id: string; version: number; summary: string }>(
        hub.dbFile,
        `SELECT a.id, v.version, v.summary FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk`,
      ).map((r) => [`${r.id} ${r.version}`, r.summary]),
    );
    for (const [id, version, tag] of acks) expect(stored.get(`${id} ${version}`), `${id}@v${version}`).toBe(tag);

    // No partial rows: versions are contiguous, the artifact's counter matches, and every version has its event.
    const perArtifact = query<{ id: string; latestVersion: number; n: number; maxV: number }>(
      hub.dbFile,
      `SELECT a.id, a.latestVersion, COUNT(v.seq) AS n, MAX(v.version) AS maxV FROM Artifact a JOIN ArtifactVersion v ON v.artifactPk = a.pk GROUP BY a.pk`,
    );
    for (const a of perArtifact) expect([a.latestVersion, a.n]).toEqual([a.maxV, a.maxV]);
    const [{ orphans }] = query<{ orphans: number }>(
      hub.dbFile,
      `SELECT COUNT(*) AS orphans FROM ArtifactVersion v JOIN Artifact a ON a.pk = v.artifactPk
       WHERE NOT EXISTS (SELECT 1 FROM Event e WHERE e.type = 'artifact.published' AND e.subject = 'artifact:' || a.id || '@v' || v.version)`,
    );
    expect(orphans).toBe(0);
    const [{ events }] = query<{ events: number }>(hub.dbFile, `SELECT COUNT(*) AS events FROM Event WHERE type = 'artifact.published'`);
    expect(events).toBe(stored.size);

    // And the hub carries on numbering where it stopped.
    const latest = perArtifact.find((a) => a.id === "storm-b")!.latestVersion;
    const next = await api(hub, "POST", "/api/artifacts", { id: "storm-b", type: "test-results", data: { total: 1, passed: 1, failed: 0 } });
    expect(next.body.version).toBe(latest + 1);
  }, 180_000);
});
