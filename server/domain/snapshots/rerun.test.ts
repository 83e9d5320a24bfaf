/**
 * Replay re-runs the overridden contracts and everything downstream of them (docs/replay.md#the-re-run-set), whatever the
 * snapshot held them in; the preview reports exactly that and writes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CompleteContractInput, ContractRefInput } from "../../../lib/api/contracts.ts";
import { CreatePipelineInput } from "../../../lib/api/pipelines.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { createChain, kit, runChain, type Kit } from "../../testing/snapshot-kit.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow } from "../../db/rows.ts";
import { completeContractCommand, startContract } from "../contracts/contracts.service.ts";
import { createPipeline } from "../pipelines/pipelines.service.ts";
import { OPERATOR } from "../principal.ts";
import { reRunSet } from "./rerun.ts";
import type { RewindPreview, RewindSummary } from "../../../lib/api/snapshots.ts";
import type { ContractState } from "./state.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const GRAPHQL = { context: "Use GraphQL instead of REST" };
const start = (id: string) => startContract(hub, OPERATOR, ContractRefInput.parse({ id }));
const finish = async (id: string) => {
  await start(id);
  await completeContractCommand(hub, OPERATOR, CompleteContractInput.parse({ id }));
};
const statuses = async (ids: string[]) => Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await k.contract(id)).status])));
const maxSeq = async () => (await hub.db.read((s) => s.get<{ s: number }>(sql`SELECT MAX("seq") AS "s" FROM "ArtifactVersion"`)))!.s;
const windowOf = async (id: string) =>
  (await hub.db.read((s) => s.get<{ w: ContractRow["windowStartSeq"] }>(sql`SELECT "windowStartSeq" AS "w" FROM "Contract" WHERE "id" = ${id}`)))!.w;
const reRunIds = (s: RewindPreview) => s.reRun.map((r) => r.id);
const withoutUndo = (s: RewindSummary | RewindPreview) => {
  const { dryRun: _d, ...rest } = s;
  return "autoSnapshot" in rest ? { ...rest, autoSnapshot: undefined } : rest;
};

/** Previews, proves the preview wrote nothing, replays, and proves the replay did what the preview said. */
async function previewThenReplay(input: Record<string, unknown>): Promise<RewindSummary> {
  const before = await snapshotTables(hub);
  const published = hub.events.length;
  const preview = await k.replayPreview(input);
  expect(await snapshotTables(hub)).toEqual(before);
  expect(hub.events.length).toBe(published);
  expect(preview.dryRun).toBe(true);
  expect(preview).not.toHaveProperty("autoSnapshot");
  const done = await k.replay(input);
  expect(done.dryRun).toBe(false);
  expect(withoutUndo(done)).toEqual(withoutUndo(preview));
  return done;
}

describe("replay re-runs the downstream chain", () => {
  it("Quick Start: a snapshot of the finished chain replayed with GraphQL re-runs build-api and write-tests, and the new run's outputs are v2 beside v1", async () => {
    await createChain(k);
    await runChain(k, "REST");
    await k.snapshot({ id: "pre-graphql", label: "Auth feature complete with REST" });
    const mark = hub.events.length;

    const r = await previewThenReplay({ id: "pre-graphql", overrides: { "build-api": { inputs: GRAPHQL } } });
    expect(r).toMatchObject({
      rolledBackCount: 0,
      reRun: [
        { id: "build-api", assignee: "api-dev", from: "completed", snapshot: "completed", to: "ready", because: "named in the overrides", waitsFor: [] },
        {
          id: "write-tests",
          assignee: "qa-dev",
          from: "completed",
          snapshot: "completed",
          to: "pending",
          because: "depends on contract 'build-api'",
          waitsFor: [],
        },
      ],
      reRunCount: 2,
      removed: { contracts: [], contractsCount: 0, pipelines: [], pipelinesCount: 0 },
      restored: { contracts: [], contractsCount: 0, pipelines: [], pipelinesCount: 0 },
      contractsChanged: [
        { id: "build-api", status: { from: "completed", to: "ready" } },
        { id: "write-tests", status: { from: "completed", to: "pending" } },
      ],
      membersNotified: 2,
    });
    expect(await statuses(["setup-schema", "build-api", "write-tests"])).toEqual({
      "setup-schema": "completed",
      "build-api": "ready",
      "write-tests": "pending",
    });
    const api = await k.contract("build-api");
    expect(api).toMatchObject({
      inputs: GRAPHQL,
      startedAt: null,
      completedAt: null,
      pinnedInputs: null,
      outputs: null,
      statusReason: "re-run by the replay of snapshot 'pre-graphql': named in the overrides",
    });
    expect(await windowOf("build-api")).toBe(await maxSeq());
    const changes = hub.events
      .slice(mark)
      .filter((e) => e.type === "contract.status_changed")
      .map((e) => e.payload);
    expect(changes).toEqual([
      expect.objectContaining({ id: "build-api", from: "completed", to: "ready", operation: "replay", reason: api.statusReason }),
      expect.objectContaining({
        id: "write-tests",
        from: "completed",
        to: "pending",
        operation: "replay",
        reason: "re-run by the replay of snapshot 'pre-graphql': depends on contract 'build-api'",
      }),
    ]);
    expect(hub.events.findLast((e) => e.type === "snapshot.replayed")).toMatchObject({ payload: { reRun: ["build-api", "write-tests"], reRunCount: 2 } });

    // The first run's versions stay active as older versions; only the new run's outputs complete the contracts.
    expect(await k.read("api-contract-user-auth")).toMatchObject({ version: 1, status: "active" });
    await k.publish({
      id: "api-contract-user-auth",
      type: "api-contract",
      derivedFrom: ["schema-user-model"],
      data: { endpoints: [{ method: "POST", path: "/graphql" }] },
    });
    expect(await statuses(["build-api", "write-tests"])).toEqual({ "build-api": "completed", "write-tests": "ready" });
    expect((await k.contract("build-api")).outputs).toEqual([expect.objectContaining({ artifactId: "api-contract-user-auth", version: 2 })]);
    await k.publish({ id: "test-results-auth", type: "test-results", derivedFrom: ["api-contract-user-auth"], data: { total: 3, passed: 3, failed: 0 } });
    expect((await k.contract("write-tests")).status).toBe("completed");
    expect((await k.contract("write-tests")).pinnedInputs).toEqual([expect.objectContaining({ artifactId: "api-contract-user-auth", version: 2 })]);
    expect((await k.read("api-contract-user-auth", 1)).status).toBe("active");
    expect((await k.read("test-results-auth", 1)).status).toBe("active");
  });

  it("a diamond re-runs each downstream contract once, upstream first; what is not downstream stays as restored", async () => {
    await k.create({ id: "a", assignee: "ann" });
    await k.create({ id: "b", assignee: "bob", dependencies: [{ type: "contract", contractId: "a" }] });
    await k.create({ id: "c", assignee: "cid", dependencies: [{ type: "contract", contractId: "a" }] });
    await k.create({
      id: "d",
      assignee: "dan",
      dependencies: [
        { type: "contract", contractId: "b" },
        { type: "contract", contractId: "c" },
      ],
    });
    await k.create({ id: "e", assignee: "eve", acceptanceCriteria: [{ type: "contract_completed", contractId: "d" }] });
    await k.create({ id: "x", assignee: "xan" });
    await k.create({ id: "y", assignee: "yul", dependencies: [{ type: "contract", contractId: "x" }] });
    for (const id of ["a", "b", "c", "x", "y"]) await finish(id);
    await start("d");
    await k.snapshot({ id: "s" });
    const all = ["a", "b", "c", "d", "e", "x", "y"];
    expect(await statuses(all)).toEqual({ a: "completed", b: "completed", c: "completed", d: "in_progress", e: "ready", x: "completed", y: "completed" });

    const fromB = await previewThenReplay({ id: "s", overrides: { b: { title: "B again" } } });
    expect(fromB.reRun.map((r) => [r.id, r.snapshot, r.to, r.because])).toEqual([
      ["b", "completed", "ready", "named in the overrides"],
      ["d", "in_progress", "pending", "depends on contract 'b'"],
      // No dependencies, so ready again at once; its criterion waits for d's new run.
      ["e", "ready", "ready", "its criteria wait for contract 'd'"],
    ]);
    expect(await statuses(all)).toEqual({ a: "completed", b: "ready", c: "completed", d: "pending", e: "ready", x: "completed", y: "completed" });
    expect(await k.contract("d")).toMatchObject({ startedAt: null, pinnedInputs: null });
    // Not downstream of b: exactly as the snapshot holds them, every field.
    const untouched = (state: { contracts: Array<{ id: string }> }) => state.contracts.filter((c) => ["a", "c", "x", "y"].includes(c.id));
    expect(untouched(await k.state())).toEqual(untouched((await k.get("s")).state));

    const fromA = await previewThenReplay({ id: "s", overrides: { a: { inputs: { v: 2 } } } });
    expect(reRunIds(fromA)).toEqual(["a", "b", "c", "d", "e"]);
    expect(await statuses(all)).toEqual({ a: "ready", b: "pending", c: "pending", d: "pending", e: "ready", x: "completed", y: "completed" });

    // The new run flows down again as its upstream completes.
    await finish("a");
    expect(await statuses(["b", "c", "d"])).toEqual({ b: "ready", c: "ready", d: "pending" });
    await finish("b");
    await finish("c");
    expect((await k.contract("d")).status).toBe("ready");
  });

  it("a contract reading an artifact a re-run contract produces waits for the new version, not the old one", async () => {
    await k.create({ id: "p", assignee: "pat", expectedOutputs: [{ artifactType: "custom", artifactId: "spec" }] });
    await k.create({
      id: "q",
      assignee: "quin",
      dependencies: [{ type: "artifact", artifactId: "spec" }],
      expectedOutputs: [{ artifactType: "custom", artifactId: "impl" }],
    });
    await k.create({ id: "r", assignee: "rae", acceptanceCriteria: [{ type: "artifact_published", artifactId: "spec" }] });
    await k.publish({ id: "spec" });
    await k.publish({ id: "impl" });
    // Published under t, which expects only a type: t produces notes, so u (which reads notes) is downstream of t.
    await k.create({ id: "t", assignee: "tia", expectedOutputs: [{ artifactType: "custom" }] });
    await k.create({ id: "u", assignee: "uma", dependencies: [{ type: "artifact", artifactId: "notes" }] });
    await start("t");
    await k.publish({ id: "notes", contractId: "t" });
    await finish("u");
    await k.snapshot({ id: "s" });
    expect(await statuses(["p", "q", "r", "t", "u"])).toEqual({ p: "completed", q: "completed", r: "completed", t: "completed", u: "completed" });

    const r = await previewThenReplay({ id: "s", overrides: { p: { title: "Spec, again" }, t: { title: "Notes, again" } } });
    expect(r.reRun.map((x) => [x.id, x.to, x.because, x.waitsFor])).toEqual([
      ["p", "ready", "named in the overrides", []],
      ["t", "ready", "named in the overrides", []],
      ["q", "pending", "depends on artifact 'spec', which 'p' produces", ["spec@v2"]],
      ["r", "ready", "its criteria read artifact 'spec', which 'p' produces", ["spec@v2"]],
      ["u", "pending", "depends on artifact 'notes', which 't' produces", ["notes@v2"]],
    ]);
    const q = await k.contract("q");
    expect(q).toMatchObject({
      dependencies: [{ type: "artifact", artifactId: "spec", minVersion: 2 }],
      statusReason: expect.stringContaining("; waits for spec@v2 from the new run"),
    });
    expect((await k.contract("r")).acceptanceCriteria).toEqual([{ type: "artifact_published", artifactId: "spec", minVersion: 2 }]);
    expect((await k.read("spec")).version).toBe(1);

    await k.publish({ id: "spec" });
    expect(await statuses(["p", "q", "r"])).toEqual({ p: "completed", q: "ready", r: "completed" });
    await k.publish({ id: "impl" });
    expect((await k.contract("q")).status).toBe("completed");
  });

  it("a rollback re-runs nothing, and its preview lists the versions rolled back and the contracts and pipelines removed and restored", async () => {
    await createChain(k);
    await createPipeline(
      hub,
      OPERATOR,
      CreatePipelineInput.parse({ id: "keep", rules: [{ trigger: { type: "contract_completed" }, action: { type: "broadcast", message: "done" } }] }),
    );
    await k.snapshot({ id: "s" });
    await runChain(k, "REST");
    await k.create({ id: "extra", assignee: "eve" });
    await createPipeline(
      hub,
      OPERATOR,
      CreatePipelineInput.parse({ id: "later", rules: [{ trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "x" } }] }),
    );

    const before = await snapshotTables(hub);
    const preview = await k.rollbackPreview("s");
    expect(await snapshotTables(hub)).toEqual(before);
    expect(preview).toMatchObject({
      dryRun: true,
      reRun: [],
      rolledBackVersions: ["api-contract-user-auth@v1", "schema-user-model@v1", "test-results-auth@v1"],
      removed: { contracts: ["extra"], contractsCount: 1, pipelines: ["later"], pipelinesCount: 1 },
      restored: { contracts: [], pipelines: [] },
      pipelinesChanged: [],
    });
    const done = await k.rollback("s");
    expect(withoutUndo(done)).toEqual(withoutUndo(preview));
    expect((await k.rollbackPreview(done.autoSnapshot)).restored).toEqual({ contracts: ["extra"], contractsCount: 1, pipelines: ["later"], pipelinesCount: 1 });
  });

  it("a preview refuses an unknown snapshot or an override for a contract the snapshot lacks, writing nothing", async () => {
    await createChain(k);
    await k.snapshot({ id: "s" });
    const missing = await refusedWithoutWriting(hub, () => k.replayPreview({ id: "nope", overrides: {} }));
    expect(missing).toMatchObject({ code: "not_found", message: expect.stringContaining("nope") });
    expect(await refusedWithoutWriting(hub, () => k.rollbackPreview("nope"))).toMatchObject({ code: "not_found" });
    const unknown = await refusedWithoutWriting(hub, () => k.replayPreview({ id: "s", overrides: { "write-docs": { title: "Docs" } } }));
    expect(issues(unknown)).toEqual([
      expect.objectContaining({ field: "overrides.write-docs", rule: "exists", message: "contract 'write-docs' is not in snapshot 's'" }),
    ]);
    const empty = await refusedWithoutWriting(hub, () => k.replayPreview({ id: "s", overrides: { "build-api": {} } }));
    expect(issues(empty)[0]).toMatchObject({ field: "overrides.build-api", message: "must change at least one of inputs, assignee, title" });
  });

  it("a preview needs the right the command needs: a member that is not a lead is refused it", async () => {
    await createChain(k);
    await k.snapshot({ id: "s" });
    const member = kit(hub, { name: "mallory", kind: "member" });
    const replaying = await refusedWithoutWriting(hub, () => member.replayPreview({ id: "s", overrides: { "build-api": { inputs: GRAPHQL } } }));
    expect(replaying).toMatchObject({ code: "forbidden", details: { operation: "snapshot.replay", rule: "lead", principal: "mallory" } });
    expect(await refusedWithoutWriting(hub, () => member.rollbackPreview("s"))).toMatchObject({
      code: "forbidden",
      details: { operation: "snapshot.rollback" },
    });
  });

  it("walks a loop through artifacts to its end, each contract once", () => {
    const c = (id: string, fields: Partial<ContractState>): ContractState => ({
      pk: 0,
      id,
      title: id,
      description: "",
      assigner: "operator",
      assignee: "dev",
      inputs: {},
      dependencies: [],
      expectedOutputs: [],
      acceptanceCriteria: [],
      priority: "normal",
      timeoutMs: null,
      deadlineAt: null,
      maxRetries: 3,
      retryCount: 0,
      status: "completed",
      statusReason: null,
      windowStartSeq: 0,
      pinnedInputs: null,
      outputs: null,
      startedAt: null,
      completedAt: null,
      createdAt: "",
      updatedAt: "",
      ...fields,
    });
    const contracts = [
      c("p", { dependencies: [{ type: "artifact", artifactId: "b" }], expectedOutputs: [{ artifactType: "custom", artifactId: "a", required: true }] }),
      c("q", { dependencies: [{ type: "artifact", artifactId: "a" }], expectedOutputs: [{ artifactType: "custom", artifactId: "b", required: true }] }),
      c("r", { dependencies: [{ type: "contract", contractId: "q" }] }),
    ];
    const producers = new Map([
      ["a", new Set(["p"])],
      ["b", new Set(["q"])],
    ]);
    expect(reRunSet(contracts, producers, ["p"])).toEqual([
      { id: "p", because: "named in the overrides" },
      { id: "q", because: "depends on artifact 'a', which 'p' produces" },
      { id: "r", because: "depends on contract 'q'" },
    ]);
    expect(reRunSet(contracts, producers, ["r"])).toEqual([{ id: "r", because: "named in the overrides" }]);
  });
});
