import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { CompleteContractInput, ContractRefInput, CreateContractInput, DependencyChangeInput, ReopenContractInput } from "../../../lib/api/contracts.ts";
import type { ContractRow, LineageEdgeRow } from "../../db/rows.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { OPERATOR } from "../principal.ts";
import { addDependency, completeContractCommand, createContract, getContract, reopenContract, startContract } from "./contracts.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const create = (id: string, input: Record<string, unknown>) =>
  createContract(hub, OPERATOR, CreateContractInput.parse({ id, title: id, assignee: "dev", ...input }));
const publish = (input: Record<string, unknown>) => publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ type: "custom", data: {}, ...input }));
const get = (id: string) => getContract(hub, ContractRefInput.parse({ id }));
const after = (...ids: string[]) => ids.map((contractId) => ({ type: "contract", contractId }));
const completed = (contractId: string) => ({ type: "contract_completed", contractId });
const published = (artifactId: string) => ({ type: "artifact_published", artifactId });

describe("a cascade in waves (docs/domain.md#resolution)", () => {
  /**
   * One publish of `root` moves the graph below. The order is the one a contract-at-a-time queue gives:
   * wave 1 is root's watchers, later waves the watchers of each completion in turn, and a watcher still
   * queued behind the contract that completed is not queued again.
   *
   *   root → w (in progress, an output published under it), r (reopened, its expected output published), a
   *   a → p (also after c), b, q (also after b and c), c (waits for b, in the same wave), e (expects an api-contract),
   *       f (tests_passing), h (also after `later`)
   *   b, c → d (diamond);  c → g (waits for d, in the same wave)
   *
   * p and q stay pending in wave 2, where c completes after them: c's completion queues them again, after d (which
   * b's completion queued); q, still queued when b completed, was not queued then.
   */
  it("moves every contract as the one-at-a-time rules do: events, effects, rows and lineage", async () => {
    const base = await publish({ id: "base" });
    await create("w", { dependencies: [{ type: "artifact", artifactId: "base" }], acceptanceCriteria: [published("root")] });
    await startContract(hub, OPERATOR, ContractRefInput.parse({ id: "w" }));
    const wOut = await publish({ id: "w-out", contractId: "w" });
    await create("r", {
      expectedOutputs: [{ artifactType: "api-contract", artifactId: "r-out" }],
      acceptanceCriteria: [published("root"), { type: "all_outputs_published" }],
    });
    await completeContractCommand(hub, OPERATOR, CompleteContractInput.parse({ id: "r", force: true, reason: "first try" }));
    await reopenContract(hub, OPERATOR, ReopenContractInput.parse({ id: "r", reason: "again" }));
    const rOut = await publish({ id: "r-out", type: "api-contract", data: { endpoints: [{ method: "GET", path: "/r" }] } });
    await publish({ id: "tests", type: "test-results", data: { total: 2, passed: 2, failed: 0, skipped: 0 } });
    await create("a", { dependencies: [{ type: "artifact", artifactId: "root" }], acceptanceCriteria: [published("root")] });
    await create("p", { dependencies: after("a"), acceptanceCriteria: [completed("a")] });
    await create("b", { dependencies: after("a"), acceptanceCriteria: [completed("a")] });
    await create("q", { dependencies: after("a", "b"), acceptanceCriteria: [completed("b")] });
    await create("c", { dependencies: after("a"), acceptanceCriteria: [completed("b")] });
    await create("d", { dependencies: after("b", "c"), acceptanceCriteria: [completed("c")] });
    await create("e", { dependencies: after("a"), expectedOutputs: [{ artifactType: "api-contract" }] });
    await create("f", { dependencies: after("a"), acceptanceCriteria: [{ type: "tests_passing", artifactId: "tests" }] });
    await create("g", { dependencies: after("c"), acceptanceCriteria: [completed("d")] });
    await create("h", { dependencies: [...after("a"), { type: "artifact", artifactId: "later" }] });
    for (const id of ["p", "q"]) await addDependency(hub, OPERATOR, DependencyChangeInput.parse({ id, dependency: { type: "contract", contractId: "c" } }));
    expect((await get("w")).status).toBe("in_progress");
    expect((await get("r")).status).toBe("ready");
    const mark = hub.events.length;

    const root = await publish({ id: "root" });

    const moves = [
      ["w", "in_progress", "completed", "acceptance criteria met"],
      ["r", "ready", "completed", "acceptance criteria met"],
      ["a", "pending", "ready", "dependencies satisfied"],
      ["a", "ready", "completed", "acceptance criteria met"],
      ["b", "pending", "ready", "dependencies satisfied"],
      ["b", "ready", "completed", "acceptance criteria met"],
      ["c", "pending", "ready", "dependencies satisfied"],
      ["c", "ready", "completed", "acceptance criteria met"],
      ["e", "pending", "ready", "dependencies satisfied"],
      ["f", "pending", "ready", "dependencies satisfied"],
      ["d", "pending", "ready", "dependencies satisfied"],
      ["d", "ready", "completed", "acceptance criteria met"],
      ["p", "pending", "ready", "dependencies satisfied"],
      ["p", "ready", "completed", "acceptance criteria met"],
      ["q", "pending", "ready", "dependencies satisfied"],
      ["q", "ready", "completed", "acceptance criteria met"],
      ["g", "pending", "ready", "dependencies satisfied"],
      ["g", "ready", "completed", "acceptance criteria met"],
    ].map(([contractId, from, to, reason]) => ({ contractId, from, to, reason }));
    expect(root.effects).toEqual(moves);
    const events = hub.events.slice(mark).filter(isEvent("contract.status_changed"));
    expect(events.map((e) => ({ contractId: e.payload.id, from: e.payload.from, to: e.payload.to, reason: e.payload.reason }))).toEqual(moves);
    expect(events.filter((e) => e.payload.to === "completed").map((e) => [e.payload.id, e.payload.outputs])).toEqual([
      ["w", ["w-out@v1"]],
      ["r", ["r-out@v1"]],
      ["a", []],
      ["b", []],
      ["c", []],
      ["d", []],
      ["p", []],
      ["q", []],
      ["g", []],
    ]);

    const rows = new Map(((await snapshotTables(hub)).Contract as ContractRow[]).map((r) => [r.id, r]));
    const row = (id: string) => {
      const r = rows.get(id)!;
      return { status: r.status, statusReason: r.statusReason, windowStartSeq: r.windowStartSeq, outputs: r.outputs, pinnedInputs: r.pinnedInputs };
    };
    const ref = (artifactId: string, seq: number) => ({ artifactId, version: 1, seq });
    const done = (outputs: unknown[], pinnedInputs: unknown[], windowStartSeq: number) => ({
      status: "completed",
      statusReason: "acceptance criteria met",
      windowStartSeq,
      outputs: JSON.stringify(outputs),
      pinnedInputs: JSON.stringify(pinnedInputs),
    });
    // The attempts that began before the publish completed with what they produced in their windows.
    expect(row("w")).toEqual(done([ref("w-out", wOut.seq)], [ref("base", base.seq)], base.seq));
    expect(row("r")).toEqual(done([ref("r-out", rOut.seq)], [], wOut.seq));
    // The ones that became ready in the publish began their attempt at it: nothing of theirs yet.
    for (const id of ["a", "b", "c", "d", "p", "q", "g"]) expect(row(id)).toEqual(done([], id === "a" ? [ref("root", root.seq)] : [], root.seq));
    for (const id of ["e", "f"]) {
      expect(row(id)).toEqual({ status: "ready", statusReason: "dependencies satisfied", windowStartSeq: root.seq, outputs: null, pinnedInputs: null });
    }
    expect(row("h")).toMatchObject({ status: "pending", statusReason: null });
    const moved = ["w", "r", "a", "b", "c", "d", "e", "f", "g", "p", "q"].map((id) => rows.get(id)!);
    const at = moved[0].updatedAt;
    for (const r of moved) {
      expect(r.updatedAt).toEqual(at);
      if (r.status === "completed") expect(r.completedAt).toEqual(at);
    }
    expect((await get("e")).completedAt).toBeNull();
    const edges = (await snapshotTables(hub)).LineageEdge as LineageEdgeRow[];
    expect(edges.map(({ fromSeq, toSeq, kind, contractId }) => ({ fromSeq, toSeq, kind, contractId }))).toEqual([
      { fromSeq: base.seq, toSeq: wOut.seq, kind: "contract", contractId: "w" },
    ]);
  });

  it("a completion by command starts the cascade with its watchers and writes its own row too", async () => {
    await create("top", {});
    await create("left", { dependencies: after("top"), acceptanceCriteria: [completed("top")] });
    await create("right", { dependencies: after("top"), acceptanceCriteria: [completed("left")] });
    const done = await completeContractCommand(hub, OPERATOR, CompleteContractInput.parse({ id: "top", summary: "shipped" }));
    expect(done).toMatchObject({ id: "top", status: "completed", statusReason: "shipped", outputs: [], pinnedInputs: [] });
    expect(done.effects.map((e) => `${e.contractId} ${e.to}`)).toEqual(["top completed", "left ready", "left completed", "right ready", "right completed"]);
    expect((await get("right")).status).toBe("completed");
  });
});
