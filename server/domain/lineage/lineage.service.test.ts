import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LineageInput } from "../../../lib/api/lineage.ts";
import { staleReasonText } from "../../../lib/stale-reason.ts";
import { API_DATA, BOB, buildLineageScenario, lineageQueries, scenarioCommands } from "../../testing/lineage-scenario.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";

let hub: TempHub;
let published: Awaited<ReturnType<typeof buildLineageScenario>>;
let q: ReturnType<typeof lineageQueries>;
let run: ReturnType<typeof scenarioCommands>;
beforeEach(async () => {
  hub = await tempHub();
  published = await buildLineageScenario(hub);
  [q, run] = [lineageQueries(hub), scenarioCommands(hub)];
});
afterEach(() => hub.close());

/** A stale artifact's reasons in the CLI's words. */
const whyOf = async (id: string) => (await q.stale()).find((s) => s.artifactId === id)?.reasons.map(staleReasonText);
const derived = (version: string, input: string) => ({ version, input, via: "derivedFrom" as const });

const edgesOf = (g: { edges: Array<{ from: string; to: string; kind: string; contractId: string | null }> }) =>
  g.edges.map((e) => `${e.from} → ${e.to} (${e.kind}${e.contractId ? ` ${e.contractId}` : ""})`);

describe("the lineage scenario: schema@v1 → api@v2 → tests@v1", () => {
  it("nothing is stale while every input is current", async () => {
    expect(await q.stale()).toEqual([]);
    expect(await q.staleIds()).toEqual([]);
  });

  it("bumping schema makes api stale, and tests and docs through it", async () => {
    await run.bumpSchema();
    const root = { kind: "superseded", root: "schema@v1", current: "schema@v2" };
    expect(await q.stale()).toEqual([
      { artifactId: "api", version: 2, reasons: [{ ...root, path: [derived("api@v2", "schema@v1")] }] },
      {
        artifactId: "docs",
        version: 1,
        reasons: [{ ...root, path: [{ version: "docs@v1", input: "api@v2", via: "contract", contractId: "document-api" }, derived("api@v2", "schema@v1")] }],
      },
      { artifactId: "tests", version: 1, reasons: [{ ...root, path: [derived("tests@v1", "api@v2"), derived("api@v2", "schema@v1")] }] },
    ]);
    expect(await whyOf("docs")).toEqual([
      "schema@v1 was superseded by schema@v2; path: docs@v1 ← api@v2 (through contract document-api's pinned input) ← schema@v1 (derivedFrom)",
    ]);
    expect(await q.staleIds()).toEqual(["api", "tests", "docs"]);
    expect(await q.staleIds({ type: "test-results" })).toEqual(["tests"]);
  });

  it("republishing api from the new schema clears the chain down to what still reads the old api", async () => {
    await run.bumpSchema();
    await run.bumpApi();
    expect(await q.stale()).toEqual([
      {
        artifactId: "docs",
        version: 1,
        reasons: [
          {
            kind: "superseded",
            root: "api@v2",
            current: "api@v3",
            path: [{ version: "docs@v1", input: "api@v2", via: "contract", contractId: "document-api" }],
          },
        ],
      },
      { artifactId: "tests", version: 1, reasons: [{ kind: "superseded", root: "api@v2", current: "api@v3", path: [derived("tests@v1", "api@v2")] }] },
    ]);
  });

  it("staleness travels down chains of any length", async () => {
    const { publish } = run;
    await publish({ id: "report", derivedFrom: ["tests"] });
    await publish({ id: "summary", derivedFrom: ["report", "docs"] });
    await run.bumpSchema();
    // One reason per input that carries staleness, each with the whole path to the root.
    expect((await q.stale()).map((s) => [s.artifactId, s.reasons.map((r) => `${r.root}: ${r.path.map((p) => p.version).join(" ← ")}`)])).toEqual([
      ["api", ["schema@v1: api@v2"]],
      ["docs", ["schema@v1: docs@v1 ← api@v2"]],
      ["report", ["schema@v1: report@v1 ← tests@v1 ← api@v2"]],
      ["summary", ["schema@v1: summary@v1 ← docs@v1 ← api@v2", "schema@v1: summary@v1 ← report@v1 ← tests@v1 ← api@v2"]],
      ["tests", ["schema@v1: tests@v1 ← api@v2"]],
    ]);
    expect(await whyOf("report")).toEqual([
      "schema@v1 was superseded by schema@v2; path: report@v1 ← tests@v1 (derivedFrom) ← api@v2 (derivedFrom) ← schema@v1 (derivedFrom)",
    ]);
    expect((await q.impactOf("schema")).artifacts.map((a) => [a.artifactId, a.depth])).toEqual([
      ["api", 1],
      ["docs", 2],
      ["tests", 2],
      ["report", 3],
      ["summary", 3],
    ]);
  });

  it("a version does not go stale for superseding its own earlier version", async () => {
    await run.publish({ id: "api", type: "api-contract", data: API_DATA, derivedFrom: ["api@v1", "schema@v1"] }, BOB);
    expect((await q.stale()).map((s) => s.artifactId)).toEqual(["docs", "tests"]);
    expect((await q.stale())[0].reasons).toEqual([
      { kind: "superseded", root: "api@v2", current: "api@v3", path: [expect.objectContaining({ version: "docs@v1", input: "api@v2" })] },
    ]);
  });

  it("cycles, which contract links can form, end every walk", async () => {
    // tests@v1 (seq 4) → api@v2 (seq 3): as if api@v2 had been linked to a contract that pinned tests@v1.
    await run.sql(sql`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind","contractId") VALUES (4, 3, 'contract', 'write-tests')`);
    await run.bumpSchema();
    // api is not stale "because of tests": that path would lead back to api itself.
    expect((await q.stale()).map((s) => [s.artifactId, s.reasons.map((r) => `${r.root}: ${r.path.map((p) => p.version).join(" ← ")}`)])).toEqual([
      ["api", ["schema@v1: api@v2"]],
      ["docs", ["schema@v1: docs@v1 ← api@v2"]],
      ["tests", ["schema@v1: tests@v1 ← api@v2"]],
    ]);
    const g = await q.graph({ ref: "api@v2", direction: "downstream" });
    expect(g.nodes.map((n) => [n.key, n.depth])).toEqual([
      ["api@v2", 0],
      ["tests@v1", 1],
      ["docs@v1", 1],
    ]);
    expect(edgesOf(g)).toEqual(["api@v2 → tests@v1 (derived)", "api@v2 → docs@v1 (contract document-api)", "tests@v1 → api@v2 (contract write-tests)"]);
    expect((await q.impactOf("api")).artifacts.map((a) => a.artifactId)).toEqual(["docs", "tests"]);
  });

  it("impact lists every artifact whose current version descends from schema, and the contracts relying on them", async () => {
    expect(await q.impactOf("schema")).toEqual({
      artifactId: "schema",
      artifacts: [
        { artifactId: "api", type: "api-contract", currentVersion: 2, depth: 1 },
        { artifactId: "docs", type: "custom", currentVersion: 1, depth: 2 },
        { artifactId: "tests", type: "test-results", currentVersion: 1, depth: 2 },
      ],
      contracts: [
        { contractId: "build-api", status: "completed", assignee: "bob", artifactId: "api", relation: "output" },
        { contractId: "build-api", status: "completed", assignee: "bob", artifactId: "schema", relation: "dependency" },
        { contractId: "document-api", status: "completed", assignee: "dave", artifactId: "api", relation: "dependency" },
        { contractId: "document-api", status: "completed", assignee: "dave", artifactId: "docs", relation: "output" },
        { contractId: "review-schema", status: "ready", assignee: "alice", artifactId: "schema", relation: "criterion" },
        { contractId: "write-tests", status: "completed", assignee: "carol", artifactId: "api", relation: "dependency" },
        { contractId: "write-tests", status: "completed", assignee: "carol", artifactId: "tests", relation: "criterion" },
        { contractId: "write-tests", status: "completed", assignee: "carol", artifactId: "tests", relation: "output" },
      ],
    });
  });

  it("impact of a leaf has no artifacts, only its own contracts", async () => {
    expect(await q.impactOf("tests")).toEqual({
      artifactId: "tests",
      artifacts: [],
      contracts: [
        { contractId: "write-tests", status: "completed", assignee: "carol", artifactId: "tests", relation: "criterion" },
        { contractId: "write-tests", status: "completed", assignee: "carol", artifactId: "tests", relation: "output" },
      ],
    });
  });

  it("audit shows the whole trail: publishers, sessions, contracts, inputs and readers, nearest first", async () => {
    const r = await q.auditOf("tests");
    const at = expect.any(Date);
    expect(r).toEqual({
      root: "tests@v1",
      trail: [
        {
          artifactId: "tests",
          version: 1,
          type: "test-results",
          status: "active",
          publisher: "carol",
          sessionId: null,
          contractId: "write-tests",
          publishedAt: published["tests@v1"].createdAt,
          inputs: ["api@v2"],
          readers: [],
          cost: null,
          code: null,
          depth: 0,
        },
        {
          artifactId: "api",
          version: 2,
          type: "api-contract",
          status: "active",
          publisher: "bob",
          sessionId: "sess-bob",
          contractId: null,
          publishedAt: published["api@v2"].createdAt,
          inputs: ["schema@v1"],
          readers: [
            { reader: "carol", version: 2, at },
            { reader: "dave", version: 2, at },
          ],
          cost: null,
          code: null,
          depth: 1,
        },
        {
          artifactId: "schema",
          version: 1,
          type: "schema-change",
          status: "active",
          publisher: "alice",
          sessionId: null,
          contractId: null,
          publishedAt: published["schema@v1"].createdAt,
          inputs: [],
          readers: [{ reader: "bob", version: 1, at }],
          cost: null,
          code: null,
          depth: 2,
        },
      ],
    });
  });

  it("audit follows contract links too", async () => {
    const r = await q.auditOf("docs@v1");
    expect(r.trail.map((e) => [e.artifactId, e.version, e.contractId, e.inputs, e.depth])).toEqual([
      ["docs", 1, "document-api", ["api@v2"], 0],
      ["api", 2, null, ["schema@v1"], 1],
      ["schema", 1, null, [], 2],
    ]);
  });
});

describe("lineage", () => {
  it("upstream from a bare id starts at its current version", async () => {
    await run.bumpSchema();
    const g = await q.graph({ ref: "tests" });
    expect(g).toEqual({
      root: "tests@v1",
      direction: "upstream",
      nodes: [
        {
          key: "tests@v1",
          artifactId: "tests",
          version: 1,
          type: "test-results",
          name: "tests",
          status: "active",
          current: true,
          stale: true,
          publisher: "carol",
          createdAt: published["tests@v1"].createdAt,
          depth: 0,
        },
        {
          key: "api@v2",
          artifactId: "api",
          version: 2,
          type: "api-contract",
          name: "api",
          status: "active",
          current: true,
          stale: true,
          publisher: "bob",
          createdAt: published["api@v2"].createdAt,
          depth: 1,
        },
        {
          key: "schema@v1",
          artifactId: "schema",
          version: 1,
          type: "schema-change",
          name: "schema",
          status: "active",
          current: false,
          stale: false,
          publisher: "alice",
          createdAt: published["schema@v1"].createdAt,
          depth: 2,
        },
      ],
      edges: [
        { from: "schema@v1", to: "api@v2", kind: "derived", contractId: null },
        { from: "api@v2", to: "tests@v1", kind: "derived", contractId: null },
      ],
    });
  });

  it("downstream from a version reaches every version derived from it, through both kinds of edge", async () => {
    const g = await q.graph({ ref: "schema@v1", direction: "downstream" });
    expect(g.nodes.map((n) => [n.key, n.depth, n.current])).toEqual([
      ["schema@v1", 0, true],
      ["api@v1", 1, false],
      ["api@v2", 1, true],
      ["tests@v1", 2, true],
      ["docs@v1", 2, true],
    ]);
    expect(edgesOf(g)).toEqual([
      "schema@v1 → api@v1 (derived)",
      "schema@v1 → api@v2 (derived)",
      "api@v2 → tests@v1 (derived)",
      "api@v2 → docs@v1 (contract document-api)",
    ]);
  });

  it("stops at the depth limit and keeps only edges between returned nodes", async () => {
    const down = await q.graph({ ref: "schema@v1", direction: "downstream", depth: 1 });
    expect(down.nodes.map((n) => n.key)).toEqual(["schema@v1", "api@v1", "api@v2"]);
    expect(edgesOf(down)).toEqual(["schema@v1 → api@v1 (derived)", "schema@v1 → api@v2 (derived)"]);
    const up = await q.graph({ ref: "docs", depth: 1 });
    expect(up.nodes.map((n) => n.key)).toEqual(["docs@v1", "api@v2"]);
    expect(edgesOf(up)).toEqual(["api@v2 → docs@v1 (contract document-api)"]);
  });

  it("a version with nothing downstream is a graph of one node", async () => {
    await run.bumpSchema();
    const g = await q.graph({ ref: "schema", direction: "downstream" });
    expect([g.root, g.nodes.map((n) => n.key), g.edges]).toEqual(["schema@v2", ["schema@v2"], []]);
  });

  it("validates its input", () => {
    const bad = (input: Record<string, unknown>) => LineageInput.safeParse(input).error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(bad({ ref: "API" })).toEqual([["ref", "must be an artifact reference 'id' or 'id@vN' (N ≥ 1)"]]);
    expect(bad({ ref: "api@v0" })).toEqual([["ref", "must be an artifact reference 'id' or 'id@vN' (N ≥ 1)"]]);
    expect(bad({ ref: "api", direction: "sideways" })).toEqual([["direction", "must be 'upstream' or 'downstream'"]]);
    expect(bad({ ref: "api", depth: 101 })).toEqual([["depth", "must be at most 100"]]);
    expect(bad({ ref: "api", depth: 0 })).toEqual([["depth", "must be at least 1"]]);
    expect(LineageInput.parse({ ref: "api", depth: 3 })).toEqual({ team: "default", ref: "api", direction: "upstream", depth: 3 });
    expect(LineageInput.parse({ ref: "api" }).depth).toBe(25);
  });
});
