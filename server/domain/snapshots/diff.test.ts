import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ReassignContractInput } from "../../../lib/api/contracts.ts";
import { CreatePipelineInput, PipelineRefInput } from "../../../lib/api/pipelines.ts";
import { issues, refusal } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { reassignContract } from "../contracts/contracts.service.ts";
import { createPipeline, pausePipeline } from "../pipelines/pipelines.service.ts";
import { OPERATOR } from "../principal.ts";
import { upsertMember } from "../roster/roster.service.ts";
import { diffStates } from "./diff.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const none = { added: [], removed: [], changed: [] };
const EMPTY = { contracts: none, artifacts: none, pipelines: none, roster: none };
const RULES = [{ trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "new ${artifact.id}" } }];

async function team() {
  await k.publish({ id: "spec" });
  await k.create({ id: "x", assignee: "dev", timeoutMs: 60_000 });
  await k.create({ id: "y", assignee: "dev", dependencies: [{ type: "contract", contractId: "x" }] });
  await k.join("dev", "busy", "x");
  await createPipeline(hub, OPERATOR, CreatePipelineInput.parse({ id: "p", rules: RULES }));
}

describe("diffStates", () => {
  it("finds nothing between a state and itself, nor in bookkeeping that moves without a real change", async () => {
    await team();
    const s = await k.state();
    expect(diffStates(s, s)).toEqual(EMPTY);
    const moved = structuredClone(s);
    moved.lastEventId += 10;
    moved.maxSeq += 10;
    for (const c of moved.contracts)
      Object.assign(c, {
        pk: c.pk + 100,
        windowStartSeq: 42,
        updatedAt: "2030-01-01T00:00:00.000Z",
        deadlineAt: "2030-01-01T00:00:00.000Z",
        createdAt: "2030-01-01T00:00:00.000Z",
      });
    for (const p of moved.pipelines) Object.assign(p, { pk: 99, updatedAt: "2030-01-01T00:00:00.000Z", fromEventId: 1 });
    for (const m of moved.roster) Object.assign(m, { lastSeen: "2030-01-01T00:00:00.000Z", sessionId: "other" });
    moved.artifacts.index[0].seq = 999;
    expect(diffStates(s, moved)).toEqual(EMPTY);
  });

  it("reports what was added, removed and changed per kind, field by field, ordered by id", async () => {
    await team();
    const before = await k.state();
    await reassignContract(hub, OPERATOR, ReassignContractInput.parse({ id: "x", assignee: "ann" }));
    await k.create({ id: "w", assignee: "ann" });
    await k.publish({ id: "spec" });
    await k.publish({ id: "api" });
    await pausePipeline(hub, OPERATOR, PipelineRefInput.parse({ id: "p" }));
    await upsertMember(hub, OPERATOR, { team: "default", name: "dev", role: "backend", status: "idle", currentTask: null });
    await k.join("ann");
    const after = await k.state();
    const forward = diffStates(before, after);
    expect(forward).toEqual({
      contracts: {
        added: [expect.objectContaining({ id: "w", assignee: "ann", status: "ready" })],
        removed: [],
        changed: [{ id: "x", fields: { assignee: { old: "dev", new: "ann" } } }],
      },
      artifacts: {
        added: [{ id: "api", version: 1, status: "active", archived: false }],
        removed: [],
        changed: [{ id: "spec", fields: { version: { old: 1, new: 2 } } }],
      },
      pipelines: { added: [], removed: [], changed: [{ id: "p", fields: { status: { old: "active", new: "paused" } } }] },
      roster: {
        added: [{ id: "ann", role: "", status: "idle", currentTask: null }],
        removed: [],
        changed: [{ id: "dev", fields: { role: { old: "", new: "backend" }, status: { old: "busy", new: "idle" }, currentTask: { old: "x", new: null } } }],
      },
    });
    expect(Object.keys(forward.contracts.added[0]).sort()).toEqual(
      [
        "id",
        "title",
        "description",
        "assignee",
        "assigner",
        "inputs",
        "dependencies",
        "expectedOutputs",
        "acceptanceCriteria",
        "priority",
        "timeoutMs",
        "maxRetries",
        "retryCount",
        "status",
        "statusReason",
        "pinnedInputs",
        "outputs",
        "startedAt",
        "completedAt",
      ].sort(),
    );
    const backward = diffStates(after, before);
    expect(backward.contracts.removed.map((c) => c.id)).toEqual(["w"]);
    expect(backward.roster.removed.map((m) => m.id)).toEqual(["ann"]);
    expect(backward.pipelines.changed).toEqual([{ id: "p", fields: { status: { old: "paused", new: "active" } } }]);
  });
});

describe("diff", () => {
  it("compares two snapshots, a snapshot with the live state, and the live state with a snapshot", async () => {
    await team();
    await k.snapshot({ id: "one" });
    await k.publish({ id: "spec" });
    await k.snapshot({ id: "two" });
    await k.publish({ id: "spec" });
    const between = await k.diff("one", "two");
    expect(between).toEqual({
      team: "default",
      a: "one",
      b: "two",
      ...EMPTY,
      artifacts: { ...none, changed: [{ id: "spec", fields: { version: { old: 1, new: 2 } } }] },
    });
    expect((await k.diff("one")).artifacts.changed).toEqual([{ id: "spec", fields: { version: { old: 1, new: 3 } } }]);
    expect((await k.diff("current", "two")).artifacts.changed).toEqual([{ id: "spec", fields: { version: { old: 3, new: 2 } } }]);
    expect(await k.diff("current", "current")).toMatchObject(EMPTY);
  });

  it("names the side that is malformed", async () => {
    const err = await refusal(k.diff("Bad Id", "current"));
    expect(err.code).toBe("invalid_input");
    expect(issues(err)[0]).toMatchObject({ field: "a", rule: "invalid_format" });
    expect(issues(await refusal(k.diff(undefined)))[0]).toMatchObject({ field: "a", rule: "invalid_type" });
    expect(issues(await refusal(k.diff("one", 5)))[0]).toMatchObject({ field: "b", rule: "invalid_type" });
  });
});
