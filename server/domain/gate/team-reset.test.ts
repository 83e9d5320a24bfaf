import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreatePipelineInput, PipelineLogInput } from "../../../lib/api/pipelines.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import type { MessageRow } from "../../db/rows.ts";
import { deliver, inboxOf } from "../chat/messages.ts";
import { listContracts } from "../contracts/contracts.service.ts";
import { createPipeline, getPipeline, listPipelines } from "../pipelines/pipelines.service.ts";
import { PipelineRunner } from "../pipelines/runner.ts";
import { OPERATOR } from "../principal.ts";
import { listRoster } from "../roster/roster.service.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { readGate } from "./gate-state.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const team = { team: "default" };
const inbox = async (member: string) => (await hub.db.read((s) => inboxOf(s, "default", member))).map((m) => m.text);
const executions = async () => await hub.db.read((s) => s.all(sql`SELECT * FROM "PipelineExecution" ORDER BY "id"`));
const messages = async () => await hub.db.read((s) => s.all<Pick<MessageRow, "archivedBy">>(sql`SELECT "archivedBy" FROM "Message" ORDER BY "id"`));

/** A team mid-run: artifacts, contracts, a busy member, a pipeline with a log, messages (two of them notices of the new contracts), one passed gate. */
async function busyTeam() {
  await k.publish({ id: "keep" });
  await k.publish({ id: "keep" });
  await k.publish({ id: "drop", data: { a: 1 } });
  await k.create({ id: "a", assignee: "dev" });
  await k.create({ id: "b", assignee: "dev", dependencies: [{ type: "contract", contractId: "a" }] });
  await k.join("dev", "busy", "a");
  await createPipeline(
    hub,
    OPERATOR,
    CreatePipelineInput.parse({
      id: "p",
      rules: [{ trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "dev", message: "new ${artifact.id}" } }],
    }),
  );
  await k.publish({ id: "drop2" });
  await new PipelineRunner(hub).drain();
  await hub.db.write("test.message", "operator", (tx) => deliver(tx, { team: "default", from: "operator", to: ["dev"], kind: "dm", text: "hello" }));
  expect((await k.gate({ expected_artifacts: ["keep"], expected_idle: [] })).passed).toBe(true);
}

describe("team reset", () => {
  it("keeps exactly the preserved artifacts and archives or removes everything else, after a pre-reset snapshot", async () => {
    await busyTeam();
    const log = await executions();
    expect(log).toHaveLength(1);
    const r = await k.reset({ confirm: true, preserve_artifacts: ["keep"] });
    expect(hub.events.at(-1)).toMatchObject({
      type: "team.reset",
      subject: "team:default",
      payload: { snapshotId: r.snapshotId, preserved: ["keep"], archived: r.archived, removed: r.removed },
    });
    expect(r).toEqual({
      team: "default",
      snapshotId: expect.stringMatching(/^pre-reset-\d{8}-\d{6}-[0-9a-f]{4}$/),
      preserved: ["keep"],
      archived: { artifacts: 2, versions: 2, messages: 4 },
      removed: { contracts: 2, members: 1, pipelines: 1 },
    });
    expect((await k.get(r.snapshotId)).kind).toBe("pre-reset");

    expect((await k.artifacts()).map((a) => [a.id, a.status, a.currentVersion])).toEqual([["keep", "active", 2]]);
    expect((await k.artifacts({ archived: true })).map((a) => [a.id, a.archived, a.status])).toEqual([
      ["keep", false, "active"],
      ["drop", true, "rolled_back"],
      ["drop2", true, "rolled_back"],
    ]);
    expect(await k.read("drop", 1)).toMatchObject({ status: "rolled_back", data: { a: 1 } });
    expect((await listContracts(hub, { ...team, limit: 100 })).items).toEqual([]);
    expect(await listRoster(hub, team)).toEqual([]);
    expect(await listPipelines(hub, team)).toEqual([]);
    expect(await executions()).toEqual(log);
    expect(await hub.db.read((s) => readGate(s, "default"))).toEqual({
      gateCount: 0,
      gatesAtLastBatch: 0,
      spawnBatchCount: 0,
      lastSpawnAt: null,
      lastGateAt: null,
    });
    expect(await inbox("dev")).toEqual([]);
    expect(await messages()).toEqual(Array(4).fill({ archivedBy: r.snapshotId }));

    const gone = await k.diff(r.snapshotId, "current");
    const archived = { version: { old: 1, new: null }, status: { old: "active", new: "rolled_back" }, archived: { old: false, new: true } };
    expect(gone.artifacts).toEqual({
      added: [],
      removed: [],
      changed: [
        { id: "drop", fields: archived },
        { id: "drop2", fields: archived },
      ],
    });
    expect(gone.contracts.removed.map((c) => c.id)).toEqual(["a", "b"]);
    expect(gone.pipelines.removed.map((p) => p.id)).toEqual(["p"]);
    expect(gone.roster.removed).toEqual([{ id: "dev", role: "", status: "busy", currentTask: "a" }]);
  });

  it("is undone by rolling back to its snapshot: the state is exactly as before, messages and the pipeline log included", async () => {
    await busyTeam();
    const before = await k.state();
    const inboxBefore = await inbox("dev");
    const r = await k.reset({ confirm: true, preserve_artifacts: ["keep"] });
    const undo = await k.rollback(r.snapshotId);
    expect(undo).toMatchObject({ reactivatedVersions: ["drop@v1", "drop2@v1"], rolledBackVersions: [], messagesRestored: 4 });
    expect(await k.state()).toEqual({ ...before, lastEventId: expect.any(Number) });
    const told =
      `The rollback to snapshot '${r.snapshotId}' by operator changed your contracts:\n` +
      `- Contract 'a' (Work) is back. It is ready: start it with contract_start({id: "a"}), do the work, and publish its outputs with artifact_publish (contractId "a").\n` +
      "- Contract 'b' (Work) is back. It is pending until a is done; you will be told when it is ready.";
    expect(await inbox("dev")).toEqual([told, ...inboxBefore]);
    expect(await messages()).toEqual(Array(5).fill({ archivedBy: null }));
    expect((await getPipeline(hub, PipelineLogInput.parse({ id: "p" }))).log).toHaveLength(1);
  });

  it("rolls back work done after the reset too", async () => {
    await busyTeam();
    const before = await k.state();
    const r = await k.reset({ confirm: true });
    await k.publish({ id: "fresh" });
    await k.create({ id: "z" });
    await k.rollback(r.snapshotId);
    const after = await k.state();
    expect(after.contracts).toEqual(before.contracts);
    expect(after.artifacts.index.map((a) => [a.id, a.version])).toEqual([
      ["drop", 1],
      ["drop2", 1],
      ["fresh", null],
      ["keep", 2],
    ]);
    expect((await k.read("fresh", 1)).status).toBe("rolled_back");
  });

  it("refuses without confirm: true, and preserved artifacts that do not exist, writing nothing", async () => {
    await k.publish({ id: "keep" });
    for (const confirm of [undefined, false, "true", 1]) {
      const err = await refusedWithoutWriting(hub, () => k.reset({ confirm }));
      expect(err.message).toMatch(/^confirm: must be exactly true: team_reset archives/);
      expect(issues(err)[0]).toMatchObject({ field: "confirm", rule: "invalid_value" });
    }
    const unknown = await refusedWithoutWriting(hub, () => k.reset({ confirm: true, preserve_artifacts: ["keep", "ghost"] }));
    expect(unknown).toMatchObject({ code: "invalid_input", message: "preserve_artifacts[1]: artifact 'ghost' does not exist in team 'default'" });
    expect(issues(unknown)).toEqual([
      { field: "preserve_artifacts[1]", rule: "exists", message: "artifact 'ghost' does not exist in team 'default'", received: "ghost" },
    ]);
    const malformed = await refusedWithoutWriting(hub, () => k.reset({ confirm: true, preserve_artifacts: ["Keep"] }));
    expect(issues(malformed)[0]).toMatchObject({ field: "preserve_artifacts[0]", rule: "invalid_format" });
  });
});
