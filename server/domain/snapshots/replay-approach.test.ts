/**
 * A different approach, end to end: snapshot before the work, run the chain, replay it with a
 * different approach, compare both runs, and undo the replay.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { refusal } from "../../testing/refusals.ts";
import { inboxOf } from "../chat/messages.ts";
import { createChain, kit, runChain, type Kit } from "../../testing/snapshot-kit.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const CHAIN = ["setup-schema", "build-api", "write-tests"];
const statuses = async () => Promise.all(CHAIN.map(async (id) => (await k.contract(id)).status));
const GRAPHQL = { context: "Use GraphQL instead of REST" };
const completedAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);

describe("snapshot → try a different approach → compare", () => {
  it("replays the chain with an override, keeps both runs' versions, diffs exactly, and can be undone", async () => {
    await createChain(k);
    await k.snapshot({ id: "pre-work", label: "before any work" });
    await runChain(k, "REST");
    expect(await statuses()).toEqual(["completed", "completed", "completed"]);

    const mark = hub.events.length;
    const replayed = await k.replay({ id: "pre-work", overrides: { "build-api": { inputs: GRAPHQL } } });
    expect(replayed).toMatchObject({
      snapshot: "pre-work",
      autoSnapshot: expect.stringMatching(/^pre-replay-\d{8}-\d{6}-[0-9a-f]{4}$/),
      rolledBackVersions: ["api-contract-user-auth@v1", "schema-user-model@v1", "test-results-auth@v1"],
      rolledBackCount: 3,
      reactivatedVersions: [],
      overridden: { "build-api": { inputs: { old: { context: "Use REST" }, new: GRAPHQL } } },
      contractsChanged: [
        { id: "build-api", status: { from: "completed", to: "pending" }, assignee: { from: "api-dev", to: "api-dev" } },
        { id: "setup-schema", status: { from: "completed", to: "ready" }, assignee: { from: "db-dev", to: "db-dev" } },
        { id: "write-tests", status: { from: "completed", to: "pending" }, assignee: { from: "qa-dev", to: "qa-dev" } },
      ],
      membersNotified: 3,
      // In the snapshot both were pending already: they start their run there, waiting for setup-schema.
      reRun: [
        { id: "build-api", assignee: "api-dev", from: "completed", snapshot: "pending", to: "pending", because: "named in the overrides", waitsFor: [] },
        {
          id: "write-tests",
          assignee: "qa-dev",
          from: "completed",
          snapshot: "pending",
          to: "pending",
          because: "depends on contract 'build-api'",
          waitsFor: [],
        },
      ],
      reRunCount: 2,
    });
    expect(await statuses()).toEqual(["ready", "pending", "pending"]);
    expect((await k.contract("build-api")).inputs).toEqual(GRAPHQL);
    expect(hub.events.slice(mark).map((e) => e.type)).toEqual([
      "snapshot.created",
      "contract.updated",
      "contract.status_changed",
      "contract.status_changed",
      "artifact.rolled_back",
      "artifact.rolled_back",
      "artifact.rolled_back",
      "snapshot.replayed",
      // The members' notices go out last, once per member, when the transaction sums up (contracts/notices.ts).
      "message.sent",
      "message.sent",
      "message.sent",
    ]);
    expect(hub.events.find((e) => e.type === "snapshot.created" && e.payload.kind === "pre-replay")).toBeDefined();
    expect(hub.events.findLast((e) => e.type === "snapshot.replayed")!.payload).toMatchObject({
      id: "pre-work",
      autoSnapshot: replayed.autoSnapshot,
      contractsChanged: ["build-api", "setup-schema", "write-tests"],
    });
    const inbox = await hub.db.read((sql) => inboxOf(sql, "default", "api-dev"));
    expect(inbox[0]).toMatchObject({
      kind: "contract",
      sender: "operator",
      text: "The replay of snapshot 'pre-work' by operator changed your contracts:\n- Contract 'build-api' (Build auth endpoints): completed → pending (re-run by the replay of snapshot 'pre-work': named in the overrides). It is pending until setup-schema is done; you will be told when it is ready.",
    });

    // The first run's versions are rolled back but still readable by number.
    const rest = await k.read("api-contract-user-auth", 1);
    expect(rest).toMatchObject({ version: 1, status: "rolled_back", data: { endpoints: [{ method: "POST", path: "/login" }] } });
    expect(await refusal(k.read("api-contract-user-auth"))).toMatchObject({ code: "not_found", details: { field: "id", rule: "active_version" } });
    expect((await k.artifacts()).map((a) => [a.id, a.status, a.currentVersion])).toEqual([
      ["schema-user-model", "rolled_back", null],
      ["api-contract-user-auth", "rolled_back", null],
      ["test-results-auth", "rolled_back", null],
    ]);

    // The replay's run gets the next version numbers and completes the chain again.
    await runChain(k, "GraphQL");
    expect(await statuses()).toEqual(["completed", "completed", "completed"]);
    expect(await k.read("api-contract-user-auth")).toMatchObject({
      version: 2,
      status: "active",
      derivedFrom: ["schema-user-model@v2"],
      data: { endpoints: [{ path: "/graphql" }] },
    });
    expect((await k.read("test-results-auth", 1)).status).toBe("rolled_back");

    expect(await k.diff("pre-work", "current")).toEqual({
      team: "default",
      a: "pre-work",
      b: "current",
      contracts: {
        added: [],
        removed: [],
        changed: [
          {
            id: "build-api",
            fields: {
              inputs: { old: { context: "Use REST" }, new: GRAPHQL },
              status: { old: "pending", new: "completed" },
              statusReason: { old: null, new: "acceptance criteria met" },
              pinnedInputs: { old: null, new: [{ artifactId: "schema-user-model", version: 2, seq: 4 }] },
              outputs: { old: null, new: [{ artifactId: "api-contract-user-auth", version: 2, seq: 5 }] },
              completedAt: { old: null, new: completedAt },
            },
          },
          {
            id: "setup-schema",
            fields: {
              status: { old: "ready", new: "completed" },
              statusReason: { old: "dependencies satisfied", new: "acceptance criteria met" },
              pinnedInputs: { old: null, new: [] },
              outputs: { old: null, new: [{ artifactId: "schema-user-model", version: 2, seq: 4 }] },
              completedAt: { old: null, new: completedAt },
            },
          },
          {
            id: "write-tests",
            fields: {
              status: { old: "pending", new: "completed" },
              statusReason: { old: null, new: "acceptance criteria met" },
              pinnedInputs: { old: null, new: [{ artifactId: "api-contract-user-auth", version: 2, seq: 5 }] },
              outputs: { old: null, new: [{ artifactId: "test-results-auth", version: 2, seq: 6 }] },
              completedAt: { old: null, new: completedAt },
            },
          },
        ],
      },
      artifacts: {
        added: [
          { id: "api-contract-user-auth", version: 2, status: "active", archived: false },
          { id: "schema-user-model", version: 2, status: "active", archived: false },
          { id: "test-results-auth", version: 2, status: "active", archived: false },
        ],
        removed: [],
        changed: [],
      },
      pipelines: { added: [], removed: [], changed: [] },
      roster: { added: [], removed: [], changed: [] },
    });

    // Undo the replay: the first run is back, the second run's versions are rolled back.
    const undo = await k.rollback(replayed.autoSnapshot);
    expect(undo).toMatchObject({
      rolledBackVersions: ["api-contract-user-auth@v2", "schema-user-model@v2", "test-results-auth@v2"],
      reactivatedVersions: ["api-contract-user-auth@v1", "schema-user-model@v1", "test-results-auth@v1"],
      contractsChanged: [],
      membersNotified: 0,
    });
    expect(await statuses()).toEqual(["completed", "completed", "completed"]);
    expect(await k.contract("build-api")).toMatchObject({
      inputs: { context: "Use REST" },
      outputs: [{ artifactId: "api-contract-user-auth", version: 1, seq: 2 }],
    });
    expect(await k.read("api-contract-user-auth")).toMatchObject({ version: 1, status: "active", data: { endpoints: [{ path: "/login" }] } });
    const noChange = { added: [], removed: [], changed: [] };
    expect(await k.diff(replayed.autoSnapshot, "current")).toMatchObject({ contracts: noChange, artifacts: noChange, pipelines: noChange, roster: noChange });
  });
});
