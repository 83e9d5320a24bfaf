import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { computeStale, staleAmong } from "./compute-stale.ts";

/**
 * The staleness target (docs/domain.md#staleness) at scale: 10,000 artifacts with 100,000 versions, written with raw SQL
 * (publishing them one by one would take minutes). 100 chains of 100 artifacts; in chain c the
 * artifact at position c (c ≥ 1) derived its current version from its predecessor's v9 instead of
 * v10, so it and everything after it in that chain is stale: 99 + 98 + … + 1 = 4,950 artifacts.
 */
const CHAINS = 100;
const LENGTH = 100;
const VERSIONS = 10;

let hub: TempHub;
beforeAll(() => {
  hub = tempHub();
  const w = hub.db.writer.raw;
  const artifact = w.prepare(`INSERT INTO "Artifact" ("teamId","id","type","name","latestVersion") VALUES ('default', ?, 'custom', ?, ?)`);
  const version = w.prepare(`INSERT INTO "ArtifactVersion" ("artifactPk","version","data","size","publisher") VALUES (?, ?, '{}', 2, 'bench')`);
  const edge = w.prepare(`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind") VALUES (?, ?, 'derived')`);
  w.transaction(() => {
    w.prepare(`INSERT INTO "Team" ("id") VALUES ('default')`).run();
    for (let c = 0; c < CHAINS; c++) {
      let previous: number[] = [];
      for (let p = 0; p < LENGTH; p++) {
        const pk = Number(artifact.run(`c${c}-p${p}`, `c${c}-p${p}`, VERSIONS).lastInsertRowid);
        const seqs = Array.from({ length: VERSIONS }, (_, k) => Number(version.run(pk, k + 1).lastInsertRowid));
        if (p > 0) seqs.forEach((seq, k) => edge.run(previous[p === c && k === VERSIONS - 1 ? k - 1 : k], seq));
        previous = seqs;
      }
    }
  })();
});
afterAll(() => hub.close());

describe("computeStale at scale", () => {
  it("finds every stale artifact of 10,000 / 100,000 versions in under 500 ms", async () => {
    const timings: number[] = [];
    let stale: Awaited<ReturnType<typeof computeStale>> = new Map();
    for (let run = 0; run < 3; run++) {
      const started = performance.now();
      stale = await hub.db.read((sql) => computeStale(sql, "default"));
      timings.push(performance.now() - started);
    }
    expect(stale.size).toBe(((CHAINS - 1) * CHAINS) / 2);
    const step = (version: string, input: string) => ({ version, input, via: "derivedFrom" });
    const direct = step("c7-p7@v10", "c7-p6@v9");
    expect(stale.get("c7-p7")).toEqual({
      artifactId: "c7-p7",
      version: 10,
      reasons: [{ kind: "superseded", root: "c7-p6@v9", current: "c7-p6@v10", path: [direct] }],
    });
    expect(stale.get("c7-p8")).toEqual({
      artifactId: "c7-p8",
      version: 10,
      reasons: [{ kind: "superseded", root: "c7-p6@v9", current: "c7-p6@v10", path: [step("c7-p8@v10", "c7-p7@v10"), direct] }],
    });
    // The far end of the longest chain names the same root, 99 steps up.
    expect(stale.get("c1-p99")!.reasons.map((r) => [r.root, r.path.length, r.path.at(-1)])).toEqual([["c1-p0@v9", 99, step("c1-p1@v10", "c1-p0@v9")]]);
    expect(stale.has("c7-p6")).toBe(false);
    expect(stale.has("c0-p99")).toBe(false);
    expect(timings.sort((a, b) => a - b)[1]).toBeLessThan(500);
  });

  it("gives the same verdicts from the upstream closure of a few versions, for exactly the artifacts in it", async () => {
    const current = (id: string) =>
      hub.db.reader.getSync<{ seq: number }>(
        `SELECT MAX(v."seq") AS "seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE a."id" = ?`,
        [id],
      )!.seq;
    const full = await hub.db.read((sql) => computeStale(sql, "default"));
    const among = await hub.db.read((sql) => staleAmong(sql, "default", [current("c7-p99"), current("c3-p2")]));
    expect([...among.values()]).toEqual([...full.values()].filter((s) => s.artifactId.startsWith("c7-")));
  });
});
