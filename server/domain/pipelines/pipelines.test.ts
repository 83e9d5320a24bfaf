import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sampleEvent } from "../../../lib/pipeline-samples.ts";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { CreateContractInput } from "../../../lib/api/contracts.ts";
import { CreatePipelineInput, DryRunInput, MatchingEventsInput, PipelineLogInput } from "../../../lib/api/pipelines.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import type { EventRow } from "../../db/rows.ts";
import { refusal } from "../../testing/refusals.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { inboxOf } from "../chat/messages.ts";
import { createContract, getContract } from "../contracts/contracts.service.ts";
import { chatKit, member } from "../../testing/chat-kit.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { upsertMember } from "../roster/roster.service.ts";
import { createPipeline, deletePipeline, dryRun, getPipeline, listPipelines, pausePipeline, resumePipeline } from "./pipelines.service.ts";
import { matchingEvents } from "./matching-events.ts";
import { PipelineRunner } from "./runner.ts";

let hub: TempHub;
let runner: PipelineRunner;
beforeEach(async () => {
  hub = await tempHub();
  runner = new PipelineRunner(hub);
});
afterEach(() => hub.close());

const pipeline = (id: string, rules: unknown[]) => createPipeline(hub, OPERATOR, CreatePipelineInput.parse({ id, rules }));
const publish = (id: string, type: string, data: unknown, extra: Record<string, unknown> = {}) =>
  publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id, type, data, ...extra }));
const contract = (input: Record<string, unknown>) => createContract(hub, OPERATOR, CreateContractInput.parse({ title: "T", ...input }));
const log = async (id: string) => (await getPipeline(hub, PipelineLogInput.parse({ id, limit: 500 }))).log.reverse();
const status = async (id: string) => getContract(hub, { team: "default", id });
const inbox = (member: string) => hub.db.read((s) => inboxOf(s, "default", member));
const tests = (failed: number) => ({ total: 10, passed: 10 - failed, failed });

describe("the self-healing CI loop, both rules", () => {
  beforeEach(async () => {
    await contract({
      id: "build-api",
      assignee: "api-dev",
      maxRetries: 1,
      expectedOutputs: [{ artifactType: "api-contract" }],
      acceptanceCriteria: [{ type: "all_outputs_published" }, { type: "tests_passing", artifactId: "test-results-auth" }],
    });
    await pipeline("ci-loop", [
      {
        trigger: { type: "artifact_published", artifactType: "api-contract" },
        action: { type: "notify_session", target: "qa-dev", message: "API contract updated — re-run tests" },
      },
      {
        name: "reopen on failures",
        trigger: { type: "artifact_published", artifactType: "test-results" },
        condition: "data.failed > 0",
        action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" },
      },
    ]);
  });

  it("notifies QA, reopens on failing tests, and completes when tests pass", async () => {
    await publish("api-contract-auth", "api-contract", { endpoints: [{ method: "POST", path: "/login" }] });
    await runner.drain();
    expect((await inbox("qa-dev")).map((m) => [m.sender, m.kind, m.text])).toEqual([["pipeline:ci-loop", "notify", "API contract updated — re-run tests"]]);

    await publish("test-results-auth", "test-results", tests(0));
    await runner.drain();
    expect((await status("build-api")).status).toBe("completed");

    await publish("test-results-auth", "test-results", tests(3));
    await runner.drain();
    expect(await status("build-api")).toMatchObject({ status: "ready", statusReason: "Tests failing: 3 failures", retryCount: 1 });

    await publish("api-contract-auth", "api-contract", {
      endpoints: [
        { method: "POST", path: "/login" },
        { method: "POST", path: "/logout" },
      ],
    });
    await runner.drain();
    expect((await status("build-api")).status).toBe("ready");
    await publish("test-results-auth", "test-results", tests(0));
    await runner.drain();
    expect((await status("build-api")).status).toBe("completed");

    const reopenRuns = (await log("ci-loop")).filter((x) => x.rule === 1);
    expect(reopenRuns.map((x) => [x.conditionResult, x.outcome])).toEqual([
      [false, "condition_false"],
      [true, "executed"],
      [false, "condition_false"],
    ]);
    expect(reopenRuns[1].detail).toMatchObject({ contractId: "build-api", reason: "Tests failing: 3 failures", retryCount: 1 });
    expect((await log("ci-loop")).filter((x) => x.rule === 0).map((x) => x.outcome)).toEqual(["executed", "executed"]);
  });

  it("logs a refusal, and keeps running, when failures exceed maxRetries", async () => {
    await publish("api-contract-auth", "api-contract", { endpoints: [{ method: "GET", path: "/me" }] });
    await publish("test-results-auth", "test-results", tests(0));
    await publish("test-results-auth", "test-results", tests(2));
    await runner.drain();
    await publish("api-contract-auth", "api-contract", { endpoints: [{ method: "GET", path: "/me" }] });
    await publish("test-results-auth", "test-results", tests(0));
    await publish("test-results-auth", "test-results", tests(5));
    await runner.drain();
    const runs = (await log("ci-loop")).filter((x) => x.rule === 1 && x.conditionResult);
    expect(runs.map((x) => x.outcome)).toEqual(["executed", "failed"]);
    expect(runs[1].error).toBe("contract 'build-api' has been reopened 1 time(s); maxRetries is 1, so it cannot be reopened again");
    expect(await status("build-api")).toMatchObject({ status: "completed", retryCount: 1 });
    await publish("api-contract-auth", "api-contract", { endpoints: [{ method: "GET", path: "/again" }] });
    await runner.drain();
    expect((await inbox("qa-dev")).length).toBe(3);
  });
});

describe("execution guarantees", () => {
  it("stops a rule that re-triggers itself at depth 10 with a loop_guard entry", async () => {
    await pipeline("echo", [
      { trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "bot", message: "start" } },
      { trigger: { type: "message_received", to: "bot" }, action: { type: "notify_session", target: "bot", message: "echo of ${message.id}" } },
    ]);
    await publish("seed", "custom", {});
    await runner.drain();
    const entries = await log("echo");
    expect(entries.filter((x) => x.outcome === "executed")).toHaveLength(10);
    const guard = entries.filter((x) => x.outcome === "loop_guard");
    expect(guard).toHaveLength(1);
    expect(guard[0].error).toContain("chains stop at depth 10");
    expect(await inbox("bot")).toHaveLength(10);
    const depths = (await snapshotTables(hub)).Event as Array<Pick<EventRow, "type" | "depth">>;
    expect(Math.max(...depths.filter((e) => e.type === "message.sent").map((e) => e.depth))).toBe(10);
  });

  it("never executes a (rule, event) twice, even when the cursor was lost", async () => {
    await pipeline("once", [{ trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "v${artifact.version}" } }]);
    await upsertMember(hub, OPERATOR, { team: "default", name: "alice" });
    for (let i = 0; i < 5; i++) await publish("doc", "custom", { i });
    await runner.drain();
    await runner.drain();
    // A crash between an execution's commit and the cursor's: the events are read again.
    await hub.db.write("test.setup", "tester", (tx) => tx.run(sql`DELETE FROM "PipelineCursor"`));
    await new PipelineRunner(hub).drain();
    expect((await log("once")).map((x) => x.outcome)).toEqual(Array(5).fill("executed"));
    expect((await inbox("alice")).map((m) => m.text).sort()).toEqual(["v1", "v2", "v3", "v4", "v5"]);
  });

  it("only considers events after the pipeline was created, and none while paused", async () => {
    await upsertMember(hub, OPERATOR, { team: "default", name: "alice" });
    await publish("early", "custom", {});
    await pipeline("late", [{ trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "${artifact.id}" } }]);
    await pausePipeline(hub, OPERATOR, { team: "default", id: "late" });
    await publish("while-paused", "custom", {});
    await runner.drain();
    await resumePipeline(hub, OPERATOR, { team: "default", id: "late" });
    await publish("after", "custom", {});
    await runner.drain();
    expect((await inbox("alice")).map((m) => m.text)).toEqual(["after"]);
  });

  it("rate-limits a rule", async () => {
    await pipeline("limited", [
      {
        trigger: { type: "artifact_published" },
        action: { type: "notify_session", target: "ops", message: "${artifact.id}" },
        rateLimit: { max: 2, perSeconds: 60 },
      },
    ]);
    for (const id of ["a", "b", "c", "d"]) await publish(id, "custom", {});
    await runner.drain();
    expect((await log("limited")).map((x) => x.outcome)).toEqual(["executed", "executed", "rate_limited", "rate_limited"]);
    expect((await inbox("ops")).map((m) => m.text).sort()).toEqual(["a", "b"]);
  });

  it("creates a contract once and skips it when it exists", async () => {
    await pipeline("followup", [
      {
        trigger: { type: "contract_failed" },
        action: {
          type: "create_contract",
          contract: { id: "fix-${contract.id}", title: "Fix ${contract.id}: ${contract.statusReason}", assignee: "${contract.assignee}", priority: "high" },
        },
      },
    ]);
    await contract({ id: "deploy", assignee: "ops" });
    await hub.db.write("t", "operator", async (tx) => {
      await tx.run(sql`UPDATE "Contract" SET "status" = 'failed' WHERE "id" = 'deploy'`);
      await tx.emit({
        teamId: "default",
        type: "contract.status_changed",
        subject: "contract:deploy",
        payload: { id: "deploy", from: "ready", to: "failed", reason: "disk full", assignee: "ops", retryCount: 0 },
      });
      await tx.emit({
        teamId: "default",
        type: "contract.status_changed",
        subject: "contract:deploy",
        payload: { id: "deploy", from: "ready", to: "failed", reason: "disk full again", assignee: "ops", retryCount: 0 },
      });
    });
    await runner.drain();
    expect((await log("followup")).map((x) => x.outcome)).toEqual(["executed", "skipped"]);
    expect(await status("fix-deploy")).toMatchObject({
      title: "Fix deploy: disk full",
      assignee: "ops",
      assigner: "operator",
      priority: "high",
      status: "ready",
    });
  });

  it("logs a condition that fails at run time instead of crashing", async () => {
    await pipeline("fragile", [{ trigger: { type: "artifact_published" }, condition: "data.missing > 0", action: { type: "broadcast", message: "x" } }]);
    await publish("doc", "custom", { present: 1 });
    await runner.drain();
    expect((await log("fragile")).map((x) => [x.outcome, x.error])).toEqual([["condition_error", "No such key: missing"]]);
  });
});

describe("managing pipelines", () => {
  it("lists with execution counts, pauses, resumes and deletes", async () => {
    await pipeline("p1", [{ trigger: { type: "artifact_published" }, condition: "artifact.version >= 2", action: { type: "broadcast", message: "bump" } }]);
    await publish("doc", "custom", {});
    await publish("doc", "custom", {});
    await runner.drain();
    expect((await listPipelines(hub, { team: "default" })).map((p) => [p.id, p.status, p.executions])).toEqual([
      ["p1", "active", { condition_false: 1, executed: 1 }],
    ]);
    expect((await refusal(resumePipeline(hub, OPERATOR, { team: "default", id: "p1" }))).message).toBe("id: pipeline 'p1' is already active");
    await pausePipeline(hub, OPERATOR, { team: "default", id: "p1" });
    expect((await listPipelines(hub, { team: "default" }))[0].status).toBe("paused");
    await deletePipeline(hub, OPERATOR, { team: "default", id: "p1" });
    expect(await listPipelines(hub, { team: "default" })).toEqual([]);
    expect((await refusal(getPipeline(hub, PipelineLogInput.parse({ id: "p1" })))).message).toBe("id: pipeline 'p1' does not exist");
  });

  it("refuses a sample event whose type is not in the event catalog, or whose payload does not fit it, naming the field", () => {
    const rule = { trigger: { type: "artifact_published" }, action: { type: "broadcast", message: "x" } };
    const fields = (event: unknown) => DryRunInput.safeParse({ rule, event }).error?.issues.map((i) => i.path.join("."));
    expect(fields({ type: "artifact.publish", payload: {} })).toEqual(["event.type"]);
    expect(fields({ type: "artifact.published", payload: { artifactId: "t", version: "2" } })).toEqual(
      expect.arrayContaining(["event.payload.version", "event.payload.seq"]),
    );
    expect(fields(sampleEvent({ type: "artifact_published" }))).toBeUndefined();
  });

  it("dry-runs a rule against a sample event and against a logged one", async () => {
    const published = (artifactId: string, type: string, version = 1) => ({
      ...{ artifactId, type, version, seq: version, name: artifactId, publisher: "qa-dev" },
      ...{ contractId: null, derivedFrom: [], summary: "", size: 64 },
    });
    const rule = {
      trigger: { type: "artifact_published", artifactType: "test-results" },
      condition: "data.failed > 0",
      action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" },
    };
    const sample = await dryRun(
      hub,
      OPERATOR,
      DryRunInput.parse({ rule, event: { type: "artifact.published", payload: published("t", "test-results", 2), data: tests(4) } }),
    );
    expect(sample).toEqual({
      triggerMatched: true,
      conditionResult: true,
      action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: 4 failures" },
    });
    const passing = await dryRun(
      hub,
      OPERATOR,
      DryRunInput.parse({ rule, event: { type: "artifact.published", payload: published("t", "test-results"), data: tests(0) } }),
    );
    expect(passing).toEqual({ triggerMatched: true, conditionResult: false, action: null });
    const other = await dryRun(
      hub,
      OPERATOR,
      DryRunInput.parse({ rule, event: { type: "artifact.published", payload: published("s", "schema-change"), data: {} } }),
    );
    expect(other).toMatchObject({ triggerMatched: false, reason: "the trigger's filters do not accept this event" });

    const before = await snapshotTables(hub);
    const logged = (await publish("tr", "test-results", tests(2))).seq;
    const eventId = ((await snapshotTables(hub)).Event as Array<Pick<EventRow, "id" | "type">>).find((e) => e.type === "artifact.published")!.id;
    expect(logged).toBe(1);
    const fromLog = await dryRun(hub, OPERATOR, DryRunInput.parse({ rule, eventId }));
    expect(fromLog.action).toMatchObject({ reason: "Tests failing: 2 failures" });
    expect(Object.keys(before)).toContain("PipelineExecution");
    expect(((await snapshotTables(hub)).PipelineExecution as unknown[]).length).toBe(0);
  });
});

describe("past events to dry-run a rule on", () => {
  const matching = (trigger: Record<string, unknown>, who: Principal = OPERATOR, limit?: number) =>
    matchingEvents(hub, who, MatchingEventsInput.parse({ trigger, limit }));

  it("lists what the trigger and its filters accept, newest first, however many other events came between", async () => {
    await publish("tr", "test-results", tests(1));
    for (let i = 0; i < 30; i++) await publish(`other-${i}`, "custom", {});
    await publish("tr", "test-results", tests(2));
    const results = await matching({ type: "artifact_published", artifactType: "test-results" });
    expect(results.events.map((e) => e.subject)).toEqual(["artifact:tr@v2", "artifact:tr@v1"]);
    expect(results).toMatchObject({ scanned: 32, complete: true });
    const bumped = await matching({ type: "artifact_version_bumped" }, OPERATOR, 1);
    expect(bumped).toMatchObject({ events: [{ subject: "artifact:tr@v2" }], scanned: 1, complete: false });
    expect((await matching({ type: "artifact_published", artifactId: "nothing-like-it" })).events).toEqual([]);
  });

  it("neither offers nor dry-runs a private message to a member who is not in it", async () => {
    const chat = chatKit(hub);
    await chat.join("api-dev", "qa-dev", "mallory");
    await chat.send("api-dev", "qa-dev", "the staging password is hunter2");
    const rule = { trigger: { type: "message_received" }, action: { type: "broadcast", message: "${message.text}" } };
    const eventId = (await matching({ type: "message_received" })).events[0].id;
    expect((await matching({ type: "message_received" }, member("mallory"))).events).toEqual([]);
    const refused = await refusal(dryRun(hub, member("mallory"), DryRunInput.parse({ rule, eventId })));
    expect(refused).toMatchObject({ code: "not_found", details: { field: "eventId" } });
    expect(JSON.stringify(refused)).not.toContain("hunter2");
    const recipient = await dryRun(hub, member("qa-dev"), DryRunInput.parse({ rule, eventId }));
    expect(recipient.action).toMatchObject({ message: "the staging password is hunter2" });
  });
});
