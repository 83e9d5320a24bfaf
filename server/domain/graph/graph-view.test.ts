import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { StateUpdateInput } from "../../../lib/api/knowledge.ts";
import { postStateUpdate } from "../knowledge/state.service.ts";
import { GraphInput } from "../../../lib/api/graph.ts";
import { buildLineageScenario, scenarioCommands } from "../../testing/lineage-scenario.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { insertMany } from "../snapshots/insert-many.ts";
import { graphView } from "./graph-view.ts";

let hub: TempHub;
let run: ReturnType<typeof scenarioCommands>;
beforeEach(async () => {
  hub = await tempHub();
  await buildLineageScenario(hub);
  run = scenarioCommands(hub);
});
afterEach(() => hub.close());

const view = async (input: Record<string, unknown> = {}) => graphView(hub, parseOrThrow(GraphInput, input));
const edgesOf = (g: Awaited<ReturnType<typeof view>>) => g.edges.map((e) => `${e.from} → ${e.to} (${e.kind})`);
const nodeOf = (g: Awaited<ReturnType<typeof view>>, key: string) => g.nodes.find((n) => n.key === key);

describe("the canvas graph", () => {
  it("holds every contract and artifact of the lineage scenario, with the edges between them", async () => {
    const g = await view();
    expect(g.team).toBe("default");
    expect(g.nodes.map((n) => n.key)).toEqual([
      "artifact:api",
      "artifact:docs",
      "artifact:logo",
      "artifact:schema",
      "artifact:tests",
      "contract:build-api",
      "contract:document-api",
      "contract:review-schema",
      "contract:unrelated",
      "contract:write-tests",
    ]);
    expect(edgesOf(g)).toEqual([
      "artifact:api → artifact:tests (derived_from)",
      "artifact:api → contract:document-api (needs_artifact)",
      "artifact:api → contract:write-tests (needs_artifact)",
      "artifact:logo → contract:unrelated (needs_artifact)",
      "artifact:schema → artifact:api (derived_from)",
      "artifact:schema → contract:build-api (needs_artifact)",
      "contract:build-api → artifact:api (output)",
      "contract:document-api → artifact:docs (output)",
      "contract:write-tests → artifact:tests (output)",
    ]);
    expect(nodeOf(g, "artifact:api")).toEqual({
      kind: "artifact",
      key: "artifact:api",
      id: "api",
      type: "api-contract",
      name: "api",
      version: 2,
      latestVersion: 2,
      status: "active",
      stale: false,
      staleReasons: [],
      publisher: "bob",
    });
    expect(nodeOf(g, "contract:write-tests")).toEqual({
      kind: "contract",
      key: "contract:write-tests",
      id: "write-tests",
      title: "Work",
      assignee: "carol",
      status: "completed",
      statusReason: expect.any(String),
      priority: "normal",
      memberState: null,
    });
  });

  it("badges a contract with its assignee's newest state update", async () => {
    await postStateUpdate(
      hub,
      { name: "carol", kind: "member" },
      parseOrThrow(StateUpdateInput, { status: "blocked", task: "Waiting on fixtures", verification: "self-validated" }),
    );
    expect(nodeOf(await view(), "contract:write-tests")).toMatchObject({
      memberState: { status: "blocked", task: "Waiting on fixtures", at: expect.any(Date) },
    });
  });

  it("shows an artifact a contract names before anyone published it", async () => {
    expect(nodeOf(await view(), "artifact:logo")).toEqual({
      kind: "artifact",
      key: "artifact:logo",
      id: "logo",
      type: null,
      name: "logo",
      version: null,
      latestVersion: 0,
      status: "unpublished",
      stale: false,
      staleReasons: [],
      publisher: null,
    });
  });

  it("takes staleness from the lineage code, reasons included", async () => {
    await run.bumpSchema();
    const g = await view();
    const root = { kind: "superseded", root: "schema@v1", current: "schema@v2" };
    const apiStep = { version: "api@v2", input: "schema@v1", via: "derivedFrom" };
    expect(nodeOf(g, "artifact:api")).toMatchObject({ stale: true, staleReasons: [{ ...root, path: [apiStep] }] });
    expect(nodeOf(g, "artifact:docs")).toMatchObject({
      stale: true,
      staleReasons: [{ ...root, path: [{ version: "docs@v1", input: "api@v2", via: "contract", contractId: "document-api" }, apiStep] }],
    });
    expect(nodeOf(g, "artifact:schema")).toMatchObject({ stale: false, version: 2, latestVersion: 2 });
  });

  it("links contract to contract, and follows dependencies added later", async () => {
    await run.contract({
      id: "deploy",
      assignee: "erin",
      dependencies: [
        { type: "contract", contractId: "unrelated" },
        { type: "artifact", artifactId: "tests", minVersion: 1 },
      ],
    });
    const g = await view();
    expect(edgesOf(g).filter((e) => e.includes("deploy"))).toEqual([
      "artifact:tests → contract:deploy (needs_artifact)",
      "contract:unrelated → contract:deploy (depends_on)",
    ]);
  });

  it("counts an artifact published under a contract as that contract's output, even when it was not expected", async () => {
    await run.contract({ id: "extra", assignee: "dave" });
    await run.start("extra", { name: "dave", kind: "member" });
    await run.publish({ id: "notes", data: { text: "by the way" }, contractId: "extra" });
    expect(edgesOf(await view()).filter((e) => e.includes("extra"))).toEqual(["contract:extra → artifact:notes (output)"]);
  });

  it("shows a rolled-back artifact with no current version, and an archived one only while a contract names it", async () => {
    await run.setStatus("tests", 1, "rolled_back");
    await run.archive("docs");
    await run.publish({ id: "scratch", data: {} });
    await run.archive("scratch");
    const g = await view();
    expect(nodeOf(g, "artifact:tests")).toMatchObject({ status: "rolled_back", version: null, latestVersion: 1 });
    expect(nodeOf(g, "artifact:docs")).toMatchObject({ status: "archived", version: 1 });
    expect(nodeOf(g, "artifact:scratch")).toBeUndefined();
    // Its current version is gone, so tests derives from nothing on the canvas.
    expect(edgesOf(g)).not.toContain("artifact:api → artifact:tests (derived_from)");
  });

  it("gives an empty graph for a team with nothing in it, and writes nothing", async () => {
    const before = await snapshotTables(hub);
    expect(await view({ team: "empty" })).toEqual({ team: "empty", nodes: [], edges: [] });
    await view();
    expect(await snapshotTables(hub)).toEqual(before);
  });

  it("refuses a bad team name, naming the field", async () => {
    const e = await refusedWithoutWriting(hub, () => view({ team: "no spaces" }));
    expect(e.message).toMatch(/^team: must be letters, digits/);
  });

  it("reads a team of 2,000 nodes in well under a second", async () => {
    // Keys are given, not generated (after the scenario's): a bulk insert cannot read them back row by row.
    const n = Array.from({ length: 1000 }, (_, i) => i);
    const linked = n.filter((i) => i % 20);
    await hub.db.write("test.seed", "tester", async (tx) => {
      const max = (await tx.get<{ a: number; v: number; c: number }>(
        sql`SELECT (SELECT COALESCE(MAX("pk"), 0) FROM "Artifact") AS "a", (SELECT COALESCE(MAX("seq"), 0) FROM "ArtifactVersion") AS "v", (SELECT COALESCE(MAX("pk"), 0) FROM "Contract") AS "c"`,
      ))!;
      const [pk, seq, cpk] = [(i: number) => max.a + i + 1, (i: number) => max.v + i + 1, (i: number) => max.c + i + 1];
      await tx.run(sql`INSERT INTO "Team" ("id") VALUES ('big')`);
      await insertMany(
        tx,
        "Artifact",
        ["pk", "teamId", "id", "type", "name", "latestVersion"],
        n.map((i) => [pk(i), "big", `a${i}`, "custom", `a${i}`, 1]),
      );
      await insertMany(
        tx,
        "ArtifactVersion",
        ["seq", "artifactPk", "version", "data", "size", "publisher"],
        n.map((i) => [seq(i), pk(i), 1, "{}", 2, "bench"]),
      );
      await insertMany(
        tx,
        "LineageEdge",
        ["fromSeq", "toSeq", "kind"],
        linked.map((i) => [seq(i - 1), seq(i), "derived"]),
      );
      const outputs = (i: number) => JSON.stringify([{ artifactType: "custom", artifactId: `a${i}`, required: true }]);
      const contracts = n.map((i) => [cpk(i), "big", `c${i}`, "Work", "operator", "bench", "pending", outputs(i)]);
      await insertMany(tx, "Contract", ["pk", "teamId", "id", "title", "assigner", "assignee", "status", "expectedOutputs"], contracts);
      await insertMany(
        tx,
        "ContractDependency",
        ["contractPk", "teamId", "kind", "targetId"],
        linked.map((i) => [cpk(i), "big", "contract", `c${i - 1}`]),
      );
    });
    // CPU time (SQLite runs in this process), not wall time on two cores shared with hubs and browsers.
    const started = process.cpuUsage();
    const g = await view({ team: "big" });
    const { user, system } = process.cpuUsage(started);
    const took = (user + system) / 1000;
    expect(g.nodes.length).toBe(2000);
    expect(g.edges.length).toBe(950 + 1000 + 950);
    expect(took).toBeLessThan(1000);
  });
});
