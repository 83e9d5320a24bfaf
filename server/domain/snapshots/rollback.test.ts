import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContractRefInput, DependencyChangeInput, ReasonInput, ReopenContractInput } from "../../../lib/api/contracts.ts";
import { CreatePipelineInput, PipelineLogInput, PipelineRefInput } from "../../../lib/api/pipelines.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql, type Query } from "../../db/sql.ts";
import type { ArtifactRow, ArtifactVersionRow } from "../../db/rows.ts";
import { inboxOf } from "../chat/messages.ts";
import { failContract, removeDependency, reopenContract, startContract } from "../contracts/contracts.service.ts";
import { createPipeline, deletePipeline, getPipeline, pausePipeline } from "../pipelines/pipelines.service.ts";
import { PipelineRunner } from "../pipelines/runner.ts";
import { OPERATOR } from "../principal.ts";
import { writeSnapshot } from "./snapshot-store.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const rows = (q: Query) => hub.db.read((s) => s.all(q));
const watches = () => rows(sql`SELECT "contractPk","kind","target" FROM "ContractWatch" WHERE "teamId" = ${"default"} ORDER BY "contractPk","kind","target"`);
const dependencies = () => rows(sql`SELECT "contractPk","kind","targetId","minVersion" FROM "ContractDependency" WHERE "teamId" = ${"default"} ORDER BY "id"`);
const seqOf = async (id: string, version: number) =>
  (await hub.db.read((s) =>
    s.get<Pick<ArtifactVersionRow, "seq">>(
      sql`SELECT v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE a."id" = ${id} AND v."version" = ${version}`,
    ),
  ))!.seq;
const pkOf = async (id: string) => (await hub.db.read((s) => s.get<Pick<ArtifactRow, "pk">>(sql`SELECT "pk" FROM "Artifact" WHERE "id" = ${id}`)))!.pk;
const inbox = async (member: string) => (await hub.db.read((s) => inboxOf(s, "default", member))).map((m) => m.text);
const pipeline = (id: string, target: string) =>
  createPipeline(
    hub,
    OPERATOR,
    CreatePipelineInput.parse({
      id,
      rules: [{ trigger: { type: "artifact_published" }, action: { type: "notify_session", target, message: "new ${artifact.id}" } }],
    }),
  );
const pipelineLog = async (id: string) => (await getPipeline(hub, PipelineLogInput.parse({ id }))).log;

describe("rollback", () => {
  it("restores contracts, watches, pipelines, roster, gate and version statuses exactly, and notifies", async () => {
    await k.publish({ id: "spec" });
    await k.publish({ id: "spec" });
    await k.create({ id: "a", assignee: "ann", priority: "high", timeoutMs: 3_600_000, expectedOutputs: [{ artifactType: "custom", artifactId: "a-out" }] });
    await startContract(hub, OPERATOR, ContractRefInput.parse({ id: "a" }));
    await k.create({
      id: "b",
      assignee: "bob",
      dependencies: [
        { type: "contract", contractId: "a" },
        { type: "artifact", artifactId: "spec", minVersion: 2 },
      ],
      acceptanceCriteria: [{ type: "artifact_published", artifactId: "b-out" }],
    });
    await k.create({ id: "t", assignee: "tom", timeoutMs: 600_000 });
    await k.create({ id: "c", assignee: "cid" });
    await failContract(hub, OPERATOR, ReasonInput.parse({ id: "c", reason: "broken" }));
    await k.create({ id: "d", assignee: "dan", expectedOutputs: [{ artifactType: "custom", artifactId: "d-out" }] });
    await k.publish({ id: "d-out" });
    await k.join("ann", "busy", "a");
    await k.join("bob");
    await pipeline("p1", "ann");
    await pipeline("p2", "bob");
    await k.publish({ id: "notes" });
    await new PipelineRunner(hub).drain();
    expect((await k.gate({ expected_artifacts: ["spec"], expected_idle: ["bob"] })).passed).toBe(true);
    const snap = await k.snapshot({ id: "s" });
    const atSnapshot = {
      state: (await k.get("s")).state,
      watches: await watches(),
      dependencies: await dependencies(),
      p1Log: await pipelineLog("p1"),
      p2Log: await pipelineLog("p2"),
    };
    expect([atSnapshot.p1Log.length, atSnapshot.p2Log.length]).toEqual([1, 1]);

    await k.publish({ id: "a-out" });
    await reopenContract(hub, OPERATOR, ReopenContractInput.parse({ id: "c" }));
    await k.create({ id: "e", assignee: "eve" });
    await removeDependency(hub, OPERATOR, DependencyChangeInput.parse({ id: "b", dependency: { type: "artifact", artifactId: "spec" } }));
    await k.publish({ id: "spec" });
    await k.join("carl");
    await k.join("ann", "idle");
    await deletePipeline(hub, OPERATOR, PipelineRefInput.parse({ id: "p1" }));
    await pipeline("p1", "carl");
    await pausePipeline(hub, OPERATOR, PipelineRefInput.parse({ id: "p1" }));
    await deletePipeline(hub, OPERATOR, PipelineRefInput.parse({ id: "p2" }));
    await pipeline("p3", "carl");
    await new PipelineRunner(hub).drain();
    const recreatedLog = await pipelineLog("p1");
    expect(recreatedLog).toHaveLength(0);
    expect((await k.gate({ expected_artifacts: ["spec"] })).gateCount).toBe(2);
    expect((await k.contract("b")).status).toBe("ready");

    const mark = hub.events.length;
    const r = await k.rollback("s");
    const emitted = hub.events.slice(mark);
    const auto = await k.get(r.autoSnapshot);
    expect(auto).toMatchObject({
      kind: "pre-rollback",
      id: expect.stringMatching(/^pre-rollback-\d{8}-\d{6}-[0-9a-f]{4}$/),
      label: "before the rollback to snapshot 's'",
    });
    expect(r).toMatchObject({
      rolledBackVersions: ["a-out@v1", "spec@v3"],
      reactivatedVersions: [],
      contractsChanged: [
        { id: "a", status: { from: "completed", to: "in_progress" }, assignee: { from: "ann", to: "ann" } },
        { id: "b", status: { from: "ready", to: "pending" }, assignee: { from: "bob", to: "bob" } },
        { id: "c", status: { from: "ready", to: "failed" }, assignee: { from: "cid", to: "cid" } },
        { id: "e", status: { from: "ready", to: null }, assignee: { from: "eve", to: null } },
      ],
      membersNotified: 4,
      messagesRestored: 0,
    });

    // Exactly the captured state; what legitimately differs: the log and publish positions, the
    // versions published since (rolled back, so a-out is now an artifact without a current
    // version), and the open contract's deadline, moved by the time the state sat in the snapshot.
    const after = await k.state();
    const s = atSnapshot.state;
    const frozen = auto.createdAt.getTime() - snap.createdAt.getTime();
    expect(after).toEqual({
      ...s,
      lastEventId: after.lastEventId,
      maxSeq: await seqOf("spec", 3),
      counts: { ...s.counts, artifacts: s.counts.artifacts + 1 },
      contracts: s.contracts.map((c) => (c.deadlineAt ? { ...c, deadlineAt: new Date(Date.parse(c.deadlineAt) + frozen).toISOString() } : c)),
      artifacts: {
        index: [{ id: "a-out", pk: await pkOf("a-out"), version: null, seq: null }, ...s.artifacts.index],
        archived: [],
        rolledBackSeqs: [await seqOf("a-out", 1), await seqOf("spec", 3)],
      },
    });
    expect(s.contracts.filter((c) => c.deadlineAt).map((c) => [c.id, c.status])).toEqual([
      ["a", "in_progress"],
      ["t", "ready"],
    ]);
    expect(s.gate.gateCount).toBe(1);
    expect(s.pipelines.map((p) => [p.id, p.status])).toEqual([
      ["p1", "active"],
      ["p2", "active"],
    ]);
    expect(await watches()).toEqual(atSnapshot.watches);
    expect(await dependencies()).toEqual(atSnapshot.dependencies);
    expect(await pipelineLog("p1")).toEqual(atSnapshot.p1Log);
    expect(await pipelineLog("p2")).toEqual(atSnapshot.p2Log);
    expect((await k.read("spec")).version).toBe(2);
    expect((await k.read("spec", 3)).status).toBe("rolled_back");

    expect((await inbox("eve"))[0]).toBe(
      "The rollback to snapshot 's' by operator changed your contracts:\n- Contract 'e' was removed: it is not in the restored state.",
    );
    expect((await inbox("ann"))[0]).toBe(
      "The rollback to snapshot 's' by operator changed your contracts:\n- Contract 'a' (Work): completed → in_progress (started by operator). It is in progress: carry on, and publish its outputs with artifact_publish (contractId \"a\").",
    );
    expect(emitted.filter((e) => e.type === "artifact.rolled_back").map((e) => e.payload)).toEqual([
      { artifactId: "a-out", versions: [1], snapshot: "s", currentVersion: null },
      { artifactId: "spec", versions: [3], snapshot: "s", currentVersion: 2 },
    ]);
    expect(emitted.findLast((e) => e.type === "snapshot.rolled_back")).toMatchObject({
      type: "snapshot.rolled_back",
      subject: "snapshot:s",
      payload: { id: "s", autoSnapshot: r.autoSnapshot, rolledBackVersions: ["a-out@v1", "spec@v3"], contractsChanged: ["a", "b", "c", "e"] },
    });

    // The automatic snapshot undoes the rollback (open contracts again get the time they had left).
    const undo = await k.rollback(r.autoSnapshot);
    expect(undo.reactivatedVersions).toEqual(["a-out@v1", "spec@v3"]);
    const frozenAgain = (await k.get(undo.autoSnapshot)).createdAt.getTime() - auto.createdAt.getTime();
    expect(await k.state()).toEqual({
      ...auto.state,
      lastEventId: expect.any(Number),
      contracts: auto.state.contracts.map((c) => (c.id === "t" ? { ...c, deadlineAt: new Date(Date.parse(c.deadlineAt!) + frozenAgain).toISOString() } : c)),
    });
  });

  it("re-resolves the restored contracts: one captured before its dependencies were met becomes ready", async () => {
    await k.publish({ id: "spec" });
    await k.create({ id: "x", dependencies: [{ type: "artifact", artifactId: "spec" }] });
    const state = await k.state();
    // As if captured a moment before resolution ran: pending although spec@v1 is there.
    const stale = { ...state, contracts: state.contracts.map((c) => ({ ...c, status: "pending", statusReason: null })) };
    await hub.db.write("test.snapshot", "operator", (tx) => writeSnapshot(tx, OPERATOR, "default", { id: "early", label: "", kind: "manual" }, stale));
    const mark = hub.events.length;
    await k.rollback("early");
    expect(await k.contract("x")).toMatchObject({ status: "ready", statusReason: "dependencies satisfied" });
    expect(
      hub.events
        .slice(mark)
        .filter((e) => e.type === "contract.status_changed")
        .map((e) => [e.payload.from, e.payload.to]),
    ).toEqual([["pending", "ready"]]);
  });
});

describe("replay", () => {
  it("hands a contract in progress to a new assignee: back to ready, both told, contract.updated old → new", async () => {
    await k.create({ id: "x", assignee: "dev", title: "Old title" });
    await startContract(hub, OPERATOR, ContractRefInput.parse({ id: "x" }));
    await k.snapshot({ id: "s" });
    const mark = hub.events.length;
    const r = await k.replay({ id: "s", overrides: { x: { assignee: "zoe", title: "New title", inputs: {} } } });
    expect(r.overridden).toEqual({ x: { assignee: { old: "dev", new: "zoe" }, title: { old: "Old title", new: "New title" } } });
    expect(await k.contract("x")).toMatchObject({ status: "ready", assignee: "zoe", title: "New title", startedAt: null, pinnedInputs: null });
    const updated = hub.events.slice(mark).find((e) => e.type === "contract.updated")!;
    expect(updated.payload).toEqual({ id: "x", changes: r.overridden.x, reason: "replay override" });
    const zoe = `Contract 'x' (New title) is now yours (it was dev's). It is ready: start it with contract_start({id: "x"}), do the work, and publish its outputs with artifact_publish (contractId "x").`;
    expect(await inbox("zoe")).toEqual([`The replay of snapshot 's' by operator changed your contracts:\n- ${zoe}`]);
    expect((await inbox("dev"))[0]).toBe(
      "The replay of snapshot 's' by operator changed your contracts:\n- Contract 'x' (New title) is no longer yours: it is now zoe's. Stop working on it.",
    );
    expect(hub.events.findLast((e) => e.type === "snapshot.replayed")).toMatchObject({
      type: "snapshot.replayed",
      payload: { id: "s", overridden: r.overridden },
    });

    const same = await k.replay({ id: "s", overrides: { x: { title: "Old title" } } });
    expect(same.overridden).toEqual({});
  });

  it("refuses overrides for contracts the snapshot does not have, and malformed overrides, writing nothing", async () => {
    await k.create({ id: "x" });
    await k.snapshot({ id: "s" });
    await k.create({ id: "late" });
    const unknown = await refusedWithoutWriting(hub, () => k.replay({ id: "s", overrides: { late: { title: "T" }, ghost: { title: "T" } } }));
    expect(unknown).toMatchObject({ code: "invalid_input", message: "overrides.late: contract 'late' is not in snapshot 's' (and 1 more)" });
    expect(issues(unknown).map((i) => [i.field, i.rule])).toEqual([
      ["overrides.late", "exists"],
      ["overrides.ghost", "exists"],
    ]);

    const cases: Array<[unknown, string, string]> = [
      [{ x: { title: "" } }, "overrides.x.title", "too_small"],
      [{ x: { title: "t".repeat(201) } }, "overrides.x.title", "too_big"],
      [{ x: { assignee: "no spaces" } }, "overrides.x.assignee", "invalid_format"],
      [{ x: { inputs: ["not", "an", "object"] } }, "overrides.x.inputs", "invalid_type"],
      [{ x: { status: "completed" } }, "overrides.x", "unrecognized_keys"],
      [{ x: {} }, "overrides.x", "custom"],
      [{ "Not An Id": { title: "T" } }, "overrides.Not An Id", "invalid_key"],
      [[], "overrides", "invalid_type"],
    ];
    for (const [overrides, field, rule] of cases) {
      const err = await refusedWithoutWriting(hub, () => k.replay({ id: "s", overrides }));
      expect(issues(err)[0]).toMatchObject({ field, rule });
    }
  });
});
