import { isEvent } from "../../../lib/api/events.ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import {
  CompleteContractInput,
  ContractRefInput,
  CreateContractInput,
  DependencyChangeInput,
  ListContractsInput,
  ReasonInput,
  ReassignContractInput,
  ReopenContractInput,
  type ContractStatus,
} from "../../../lib/api/contracts.ts";
import { sql } from "../../db/sql.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import type { LineageEdgeRow } from "../../db/rows.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { artifactReaders, publishArtifact } from "../artifacts/artifacts.service.ts";
import { overview } from "../overview/overview.service.ts";
import { OPERATOR, SCHEDULER, type Principal } from "../principal.ts";
import { archiveTeam } from "../teams/teams.service.ts";
import {
  addDependency,
  completeContractCommand,
  createContract,
  failContract,
  failOverdue,
  getContract,
  listContracts,
  reassignContract,
  removeDependency,
  reopenContract,
  startContract,
} from "./contracts.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const member = (name: string): Principal => ({ name, kind: "member" });
const DEV = member("dev");

// Adapters parse with the zod input schemas; so do these helpers.
const create = (input: Record<string, unknown>, actor: Principal = OPERATOR) =>
  createContract(hub, actor, CreateContractInput.parse({ title: "Work", assignee: "dev", ...input }));
const publish = (input: Record<string, unknown>, actor: Principal = OPERATOR) =>
  publishArtifact(hub, actor, PublishArtifactInput.parse({ type: "custom", data: {}, ...input }));
const get = (id: string, team = "default") => getContract(hub, ContractRefInput.parse({ id, team }));
const start = (id: string, actor: Principal = OPERATOR) => startContract(hub, actor, ContractRefInput.parse({ id }));
const complete = (input: Record<string, unknown>, actor: Principal = OPERATOR) => completeContractCommand(hub, actor, CompleteContractInput.parse(input));
const fail = (id: string, actor: Principal = OPERATOR, reason = "broken") => failContract(hub, actor, ReasonInput.parse({ id, reason }));
const reopen = (id: string, actor: Principal = OPERATOR) => reopenContract(hub, actor, ReopenContractInput.parse({ id }));
const reassign = (id: string, assignee: string, actor: Principal = OPERATOR) => reassignContract(hub, actor, ReassignContractInput.parse({ id, assignee }));
const addDep = (id: string, dependency: Record<string, unknown>, actor: Principal = OPERATOR) =>
  addDependency(hub, actor, DependencyChangeInput.parse({ id, dependency }));
const removeDep = (id: string, dependency: Record<string, unknown>, actor: Principal = OPERATOR) =>
  removeDependency(hub, actor, DependencyChangeInput.parse({ id, dependency }));
const statuses = async (...ids: string[]) => Promise.all(ids.map(async (id) => (await get(id)).status));

/** test-results data; tests neither passed nor failed count as skipped. */
const testResults = (id: string, passed: number, failed: number, total = passed + failed) =>
  publish({ id, type: "test-results", data: { total, passed, failed, skipped: total - passed - failed } });
const apiContract = (id: string, extra: Record<string, unknown> = {}) =>
  publish({ id, type: "api-contract", data: { endpoints: [{ method: "GET", path: `/${id}` }] }, ...extra });

/** Contract `id` in the given state, reached through the public operations only. */
async function contractIn(state: ContractStatus, id = "c") {
  await create({ id, ...(state === "pending" ? { dependencies: [{ type: "artifact", artifactId: "gate" }] } : {}) });
  if (state === "in_progress") await start(id);
  if (state === "completed") await complete({ id });
  if (state === "failed") await fail(id);
  expect((await get(id)).status).toBe(state);
}

/** Events published since a mark, for "this command emitted exactly…" assertions. */
const since = (mark: number) => hub.events.slice(mark);

describe("create and read", () => {
  it("stores every field, takes the assigner from the principal and emits contract.created", async () => {
    const c = await create(
      {
        id: "build-api",
        title: "Build the API",
        description: "REST",
        assignee: "api-dev",
        inputs: { context: "use the schema" },
        priority: "high",
        timeoutMs: 60_000,
        maxRetries: 1,
        expectedOutputs: [{ artifactType: "api-contract" }],
      },
      member("lead"),
    );
    expect(c).toMatchObject({
      id: "build-api",
      team: "default",
      title: "Build the API",
      description: "REST",
      assigner: "lead",
      assignee: "api-dev",
      inputs: { context: "use the schema" },
      dependencies: [],
      expectedOutputs: [{ artifactType: "api-contract", required: true }],
      acceptanceCriteria: [],
      priority: "high",
      timeoutMs: 60_000,
      maxRetries: 1,
      retryCount: 0,
      status: "ready",
      statusReason: "dependencies satisfied",
      pinnedInputs: null,
      outputs: null,
      effects: [{ contractId: "build-api", from: "pending", to: "ready", reason: "dependencies satisfied" }],
    });
    expect(c.deadlineAt!.getTime() - c.createdAt.getTime()).toBe(60_000);
    // Then the notices: the assignee's, and the operator feed's copy of a creation someone else made (notices.test.ts).
    expect(hub.events.map((e) => [e.type, "to" in e.payload ? e.payload.to : null])).toEqual([
      ["team.created", null],
      ["contract.created", null],
      ["contract.status_changed", "ready"],
      ["message.sent", "api-dev"],
      ["message.sent", "operator"],
    ]);
    expect(hub.events[1]).toMatchObject({
      principal: "lead",
      subject: "contract:build-api",
      payload: { id: "build-api", status: "pending", assigner: "lead" },
    });
    const { effects: _effects, ...view } = c;
    expect(await get("build-api")).toEqual(view);
  });

  it("refuses a duplicate id and an unknown id", async () => {
    await create({ id: "a" });
    const dup = await refusedWithoutWriting(hub, () => create({ id: "a" }));
    expect(dup).toMatchObject({ code: "conflict", message: "id: contract 'a' already exists in team 'default'", details: { field: "id" } });
    expect(await refusal(get("ghost"))).toMatchObject({ code: "not_found", details: { field: "id", id: "ghost" } });
    expect((await refusal(get("a", "other"))).code).toBe("not_found");
  });

  it("lists with filters and a cursor", async () => {
    await create({ id: "a", assignee: "ann" }, member("lead"));
    await create({ id: "b", assignee: "bob", dependencies: [{ type: "contract", contractId: "a" }] });
    await create({ id: "c", assignee: "ann" });
    await create({ id: "d", assignee: "ann", team: "other" });
    const ids = async (filters: Record<string, unknown>) => (await listContracts(hub, ListContractsInput.parse(filters))).items.map((c) => c.id);
    expect(await ids({})).toEqual(["a", "b", "c"]);
    expect(await ids({ status: "pending" })).toEqual(["b"]);
    expect(await ids({ assignee: "ann" })).toEqual(["a", "c"]);
    expect(await ids({ assigner: "lead" })).toEqual(["a"]);
    expect(await ids({ team: "other" })).toEqual(["d"]);
    const page = await listContracts(hub, ListContractsInput.parse({ limit: 2 }));
    expect(page.items.map((c) => c.id)).toEqual(["a", "b"]);
    expect(page.items[1].dependencies).toEqual([{ type: "contract", contractId: "a" }]);
    const rest = await listContracts(hub, ListContractsInput.parse({ limit: 2, cursor: page.nextCursor }));
    expect(rest).toMatchObject({ items: [{ id: "c" }], nextCursor: null });
    expect((await overview(hub, OPERATOR, { team: "default" })).contractsByStatus).toEqual({ pending: 1, ready: 2, in_progress: 0, completed: 0, failed: 0 });
  });
});

describe("state machine", () => {
  const operations = {
    start: (id: string) => start(id),
    complete: (id: string) => complete({ id }),
    fail: (id: string) => fail(id),
    reopen: (id: string) => reopen(id),
    reassign: (id: string) => reassign(id, "someone-else"),
    "add dependency": (id: string) => addDep(id, { type: "artifact", artifactId: "other" }),
    "remove dependency": (id: string) => removeDep(id, { type: "artifact", artifactId: "gate" }),
  };
  type Op = keyof typeof operations;

  it.each<[Op, ContractStatus, string]>([
    ["start", "pending", "ready"],
    ["start", "in_progress", "ready"],
    ["start", "completed", "ready"],
    ["start", "failed", "ready"],
    ["complete", "pending", "ready or in_progress"],
    ["complete", "completed", "ready or in_progress"],
    ["complete", "failed", "ready or in_progress"],
    ["fail", "completed", "pending or ready or in_progress"],
    ["fail", "failed", "pending or ready or in_progress"],
    ["reopen", "pending", "completed or failed"],
    ["reopen", "ready", "completed or failed"],
    ["reopen", "in_progress", "completed or failed"],
    ["reassign", "completed", "pending or ready or in_progress"],
    ["reassign", "failed", "pending or ready or in_progress"],
    ["add dependency", "in_progress", "pending or ready"],
    ["add dependency", "completed", "pending or ready"],
    ["add dependency", "failed", "pending or ready"],
    ["remove dependency", "in_progress", "pending or ready"],
    ["remove dependency", "completed", "pending or ready"],
    ["remove dependency", "failed", "pending or ready"],
  ])("refuses %s from %s (needs %s) and changes nothing", async (op, state, allowed) => {
    await contractIn(state);
    const err = await refusedWithoutWriting(hub, () => operations[op]("c"));
    expect(err.code).toBe("illegal_transition");
    expect(err.status).toBe(409);
    const verb = op.endsWith("dependency") ? "change dependencies" : op;
    expect(err.message).toBe(`contract 'c' is ${state}; ${verb} needs it to be ${allowed}`);
    expect(err.details).toMatchObject({ id: "c", current: state });
  });

  it.each<[Op, ContractStatus, ContractStatus]>([
    ["start", "ready", "in_progress"],
    ["complete", "ready", "completed"],
    ["complete", "in_progress", "completed"],
    ["fail", "pending", "failed"],
    ["fail", "ready", "failed"],
    ["fail", "in_progress", "failed"],
    ["reopen", "completed", "ready"],
    ["reopen", "failed", "ready"],
    ["reassign", "in_progress", "ready"],
  ])("%s moves %s → %s with one contract.status_changed event", async (op, from, to) => {
    await contractIn(from);
    const mark = hub.events.length;
    await operations[op]("c");
    expect((await get("c")).status).toBe(to);
    const changes = since(mark).filter((e) => e.type === "contract.status_changed");
    expect(changes).toMatchObject([{ subject: "contract:c", principal: "operator", payload: { id: "c", from, to } }]);
  });

  it.each<ContractStatus>(["pending", "ready"])("reassign leaves a %s contract where it is", async (state) => {
    await contractIn(state);
    const c = await reassign("c", "other-dev");
    expect(c).toMatchObject({ status: state, assignee: "other-dev" });
  });

  it("records why a contract failed", async () => {
    await contractIn("in_progress");
    expect(await fail("c", DEV, "the API spec is contradictory")).toMatchObject({ status: "failed", statusReason: "the API spec is contradictory" });
  });
});

describe("acceptance criteria", () => {
  describe("artifact_published", () => {
    it("waits for minVersion", async () => {
      await create({ id: "c", acceptanceCriteria: [{ type: "artifact_published", artifactId: "spec", minVersion: 2 }] });
      await start("c");
      await publish({ id: "spec" });
      expect((await get("c")).status).toBe("in_progress");
      const err = await refusal(complete({ id: "c" }));
      expect(err.code).toBe("precondition_failed");
      expect(err.message).toBe("contract 'c' cannot complete: artifact_published (artifact 'spec' needs v2, has v1). Pass force with a reason to override");
      const v2 = await publish({ id: "spec" });
      expect(v2.effects).toEqual([{ contractId: "c", from: "in_progress", to: "completed", reason: "acceptance criteria met" }]);
      expect(await get("c")).toMatchObject({ status: "completed", statusReason: "acceptance criteria met" });
    });

    it("is met at once by an artifact that already exists", async () => {
      await publish({ id: "spec" });
      const c = await create({ id: "c", acceptanceCriteria: [{ type: "artifact_published", artifactId: "spec" }] });
      expect(c.status).toBe("completed");
    });
  });

  describe("tests_passing", () => {
    it.each([
      ["all passing, defaults", {}, [10, 0], null],
      ["one failure, defaults", {}, [9, 1], "1 failing (at most 0 allowed)"],
      ["one failure allowed", { maxFailed: 1, minPassRate: 0.9 }, [9, 1], null],
      ["pass rate too low", { maxFailed: 5, minPassRate: 0.9 }, [8, 2], "pass rate 0.800 is below 0.9"],
      ["skipped lower the pass rate", { minPassRate: 0.5 }, [5, 0, 10], null],
      ["skipped below the pass rate", { minPassRate: 0.6 }, [5, 0, 10], "pass rate 0.500 is below 0.6"],
      ["no tests at all", {}, [0, 0], "pass rate 0.000 is below 1"],
    ])("%s", async (_name, options, [passed, failed, total], unmet) => {
      await create({ id: "c", acceptanceCriteria: [{ type: "tests_passing", artifactId: "tests", ...options }] });
      await testResults("tests", passed, failed, total);
      const c = await get("c");
      if (unmet === null) {
        expect(c.status).toBe("completed");
      } else {
        expect(c.status).toBe("ready");
        expect((await refusal(complete({ id: "c" }))).details.unmet).toEqual([
          { criterion: expect.objectContaining({ type: "tests_passing" }), reason: unmet },
        ]);
      }
    });

    it("needs test-results data", async () => {
      await create({ id: "c", acceptanceCriteria: [{ type: "tests_passing", artifactId: "tests" }] });
      expect((await refusal(complete({ id: "c" }))).message).toContain("tests_passing (no test results in 'tests' yet)");
      await publish({ id: "tests", data: { total: 1, passed: 1, failed: 0 } });
      expect((await refusal(complete({ id: "c" }))).message).toContain("tests_passing (artifact 'tests' is custom, not test-results)");
    });

    it("counts only results published in the current attempt", async () => {
      await testResults("tests", 5, 0);
      await create({ id: "c", acceptanceCriteria: [{ type: "tests_passing", artifactId: "tests" }] });
      expect((await get("c")).status).toBe("ready");
      expect((await refusal(complete({ id: "c" }))).message).toContain("'tests@v1' predates this attempt; publish new test results");

      await testResults("tests", 6, 0);
      expect((await get("c")).status).toBe("completed");

      await reopen("c");
      expect((await get("c")).status).toBe("ready");
      expect((await refusal(complete({ id: "c" }))).message).toContain("'tests@v2' predates this attempt");
      await testResults("tests", 7, 0);
      expect(await get("c")).toMatchObject({ status: "completed", retryCount: 1 });
    });

    it("does not count results published while the contract was still pending", async () => {
      await create({ id: "c", dependencies: [{ type: "artifact", artifactId: "gate" }], acceptanceCriteria: [{ type: "tests_passing", artifactId: "tests" }] });
      await testResults("tests", 5, 0);
      await publish({ id: "gate" });
      expect((await get("c")).status).toBe("ready");
      await testResults("tests", 5, 0);
      expect((await get("c")).status).toBe("completed");
    });
  });

  describe("contract_completed", () => {
    it("completes in the same transaction as the contract it waits for", async () => {
      await create({ id: "a" });
      await create({ id: "b", acceptanceCriteria: [{ type: "contract_completed", contractId: "a" }] });
      await start("b");
      const done = await complete({ id: "a" });
      expect(done.effects).toEqual([
        { contractId: "a", from: "ready", to: "completed", reason: "completed by operator" },
        { contractId: "b", from: "in_progress", to: "completed", reason: "acceptance criteria met" },
      ]);
    });

    it.each([
      ["ghost", "acceptanceCriteria[0].contractId", "exists", "contract 'ghost' does not exist in team 'default'"],
      ["c", "acceptanceCriteria[0].contractId", "no_cycle", "a contract cannot wait for its own completion"],
    ])("refuses waiting for %s", async (contractId, field, rule, message) => {
      const err = await refusedWithoutWriting(hub, () => create({ id: "c", acceptanceCriteria: [{ type: "contract_completed", contractId }] }));
      expect(err.code).toBe("invalid_input");
      expect(issues(err)[0]).toMatchObject({ field, rule, message });
      expect(err.message).toBe(`${field}: ${message}`);
    });
  });

  describe("all_outputs_published", () => {
    it("applies by default when only expectedOutputs are given", async () => {
      await create({ id: "c", expectedOutputs: [{ artifactType: "schema-change" }] });
      const err = await refusal(complete({ id: "c" }));
      expect(err.message).toBe("contract 'c' cannot complete: all_outputs_published (missing output: schema-change). Pass force with a reason to override");
      await publish({ id: "user-schema", type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] } });
      expect(await get("c")).toMatchObject({ status: "completed", outputs: [{ artifactId: "user-schema", version: 1 }] });
    });

    it("does not wait for optional outputs, but records them when present", async () => {
      await create({
        id: "c",
        expectedOutputs: [
          { artifactType: "api-contract" },
          { artifactType: "test-results", required: false },
          { artifactType: "file-manifest", required: false },
        ],
        acceptanceCriteria: [{ type: "all_outputs_published" }],
      });
      await testResults("tests", 1, 0);
      expect((await get("c")).status).toBe("ready");
      await apiContract("api");
      expect(await get("c")).toMatchObject({
        status: "completed",
        outputs: [
          { artifactId: "tests", version: 1 },
          { artifactId: "api", version: 1 },
        ],
      });
    });

    it("matches a given artifactId only", async () => {
      await create({ id: "c", expectedOutputs: [{ artifactType: "api-contract", artifactId: "auth-api" }] });
      await apiContract("users-api");
      expect((await refusal(complete({ id: "c" }))).message).toContain("missing output: api-contract 'auth-api'");
      await apiContract("auth-api");
      expect(await get("c")).toMatchObject({ status: "completed", outputs: [{ artifactId: "auth-api", version: 1 }] });
    });

    it("does not count outputs published under another contract", async () => {
      await create({ id: "x", expectedOutputs: [{ artifactType: "api-contract" }] });
      await create({ id: "y", expectedOutputs: [{ artifactType: "api-contract" }] });
      const forY = await apiContract("y-api", { contractId: "y" });
      expect(forY.effects.map((e) => [e.contractId, e.to])).toEqual([["y", "completed"]]);
      expect(await statuses("x", "y")).toEqual(["ready", "completed"]);
      await apiContract("shared-api");
      expect(await get("x")).toMatchObject({ status: "completed", outputs: [{ artifactId: "shared-api" }] });
    });

    it("needs at least one expected output", async () => {
      const err = await refusedWithoutWriting(hub, () => create({ id: "c", acceptanceCriteria: [{ type: "all_outputs_published" }] }));
      expect(issues(err)[0]).toMatchObject({ field: "acceptanceCriteria[0]", rule: "requires_outputs" });
    });
  });

  it("lists every unmet criterion", async () => {
    await create({ id: "other" });
    await create({
      id: "c",
      acceptanceCriteria: [
        { type: "artifact_published", artifactId: "spec" },
        { type: "contract_completed", contractId: "other" },
      ],
    });
    const err = await refusedWithoutWriting(hub, () => complete({ id: "c" }));
    expect(err).toMatchObject({ code: "precondition_failed", status: 412 });
    expect(err.message).toBe(
      "contract 'c' cannot complete: artifact_published (artifact 'spec' needs v1, has no version); contract_completed (contract 'other' is ready). Pass force with a reason to override",
    );
    expect(err.details.unmet).toEqual([
      { criterion: { type: "artifact_published", artifactId: "spec" }, reason: "artifact 'spec' needs v1, has no version" },
      { criterion: { type: "contract_completed", contractId: "other" }, reason: "contract 'other' is ready" },
    ]);
  });

  it("without criteria never completes by itself, but can be completed", async () => {
    await create({ id: "c" });
    await start("c");
    await apiContract("api");
    await testResults("tests", 3, 0);
    expect((await get("c")).status).toBe("in_progress");
    expect(await complete({ id: "c", summary: "done by hand" }, DEV)).toMatchObject({ status: "completed", statusReason: "done by hand" });
  });

  it("can be forced with a reason", async () => {
    await create({ id: "c", expectedOutputs: [{ artifactType: "api-contract" }] });
    const forced = await complete({ id: "c", force: true, reason: "API dropped from scope" });
    expect(forced).toMatchObject({ status: "completed", statusReason: "forced by operator: API dropped from scope", outputs: [] });
  });

  it("refuses force without a reason, naming reason", async () => {
    await create({ id: "c", expectedOutputs: [{ artifactType: "api-contract" }] });
    const err = await refusedWithoutWriting(hub, () => complete({ id: "c", force: true }));
    expect(err.code).toBe("invalid_input");
    expect(issues(err)[0]).toMatchObject({ field: "reason", rule: "required_with_force" });
    expect(err.message).toMatch(/^reason: is required when force is true/);
  });
});

describe("dependencies and cascades", () => {
  it("cascades through a chain of 60 contracts in one publish", async () => {
    const n = 60;
    await create({ id: "c0", acceptanceCriteria: [{ type: "artifact_published", artifactId: "trigger" }] });
    for (let i = 1; i < n; i++) {
      await create({
        id: `c${i}`,
        dependencies: [{ type: "contract", contractId: `c${i - 1}` }],
        acceptanceCriteria: [{ type: "contract_completed", contractId: `c${i - 1}` }],
      });
    }
    const ids = Array.from({ length: n }, (_, i) => `c${i}`);
    expect(await statuses(...ids)).toEqual(ids.map((id) => (id === "c0" ? "ready" : "pending")));
    const v = await publish({ id: "trigger" });
    expect(await statuses(...ids)).toEqual(ids.map(() => "completed"));
    expect(v.effects).toHaveLength(1 + 2 * (n - 1));
    expect(v.effects.at(-1)).toEqual({ contractId: `c${n - 1}`, from: "ready", to: "completed", reason: "acceptance criteria met" });
  });

  it("fans out to every dependent", async () => {
    await create({ id: "root" });
    const dependents = Array.from({ length: 12 }, (_, i) => `leaf-${i}`);
    for (const id of dependents) await create({ id, dependencies: [{ type: "contract", contractId: "root" }] });
    const done = await complete({ id: "root" });
    expect(await statuses(...dependents)).toEqual(dependents.map(() => "ready"));
    expect(done.effects.map((e) => e.contractId)).toEqual(["root", ...dependents]);
  });

  it("waits for an artifact dependency to reach minVersion", async () => {
    await create({ id: "c", dependencies: [{ type: "artifact", artifactId: "spec", minVersion: 2 }] });
    await publish({ id: "spec" });
    expect((await get("c")).status).toBe("pending");
    await publish({ id: "spec" });
    expect(await get("c")).toMatchObject({ status: "ready", dependencies: [{ type: "artifact", artifactId: "spec", minVersion: 2 }] });
  });

  it.each([
    [[{ type: "contract", contractId: "ghost" }], "dependencies[0].contractId", "exists", "contract 'ghost' does not exist in team 'default'"],
    [[{ type: "contract", contractId: "c" }], "dependencies[0].contractId", "no_cycle", "a contract cannot depend on itself (c → c)"],
    [
      [
        { type: "artifact", artifactId: "spec" },
        { type: "artifact", artifactId: "spec", minVersion: 2 },
      ],
      "dependencies[1]",
      "unique",
      "duplicates an earlier dependency on artifact:spec",
    ],
  ])("refuses creating with dependencies %j", async (dependencies, field, rule, message) => {
    const err = await refusedWithoutWriting(hub, () => create({ id: "c", dependencies }));
    expect(err.code).toBe("invalid_input");
    expect(issues(err)[0]).toMatchObject({ field, rule, message });
    expect(err.message).toBe(`${field}: ${message}`);
  });

  describe("cycles", () => {
    it.each([
      ["itself", [], "a", "a → a"],
      ["a direct cycle", [["b", "a"]], "b", "a → b → a"],
      [
        "a three-long cycle",
        [
          ["b", "a"],
          ["c", "b"],
        ],
        "c",
        "a → c → b → a",
      ],
    ])("refuses a dependency that closes %s", async (_name, edges, target, path) => {
      await create({ id: "a" });
      for (const [id, on] of edges) await create({ id, dependencies: [{ type: "contract", contractId: on }] });
      const err = await refusedWithoutWriting(hub, () => addDep("a", { type: "contract", contractId: target }));
      expect(err.code).toBe("invalid_input");
      expect(issues(err)[0]).toMatchObject({ field: "dependency.contractId", rule: "no_cycle" });
      expect(err.message).toBe(`dependency.contractId: would create a dependency cycle: ${path}`);
    });

    it("sees waits through contract_completed criteria too", async () => {
      await create({ id: "a" });
      await create({ id: "b", acceptanceCriteria: [{ type: "contract_completed", contractId: "a" }] });
      const err = await refusal(addDep("a", { type: "contract", contractId: "b" }));
      expect(err.message).toBe("dependency.contractId: would create a dependency cycle: a → b → a");
    });
  });

  describe("adding and removing", () => {
    it("refuses a duplicate and an unknown contract", async () => {
      await create({ id: "c", dependencies: [{ type: "artifact", artifactId: "gate" }] });
      const dup = await refusedWithoutWriting(hub, () => addDep("c", { type: "artifact", artifactId: "gate", minVersion: 3 }));
      expect(issues(dup)[0]).toMatchObject({ field: "dependency", rule: "unique", message: "contract 'c' already depends on artifact:gate" });
      const unknown = await refusedWithoutWriting(hub, () => addDep("c", { type: "contract", contractId: "ghost" }));
      expect(issues(unknown)[0]).toMatchObject({
        field: "dependency.contractId",
        rule: "exists",
        message: "contract 'ghost' does not exist in team 'default'",
      });
      const missing = await refusedWithoutWriting(hub, () => removeDep("c", { type: "artifact", artifactId: "other" }));
      expect(issues(missing)[0]).toMatchObject({ field: "dependency", rule: "exists", message: "contract 'c' does not depend on artifact:other" });
    });

    it("makes a pending contract ready when its last unmet dependency is removed", async () => {
      await create({ id: "c", dependencies: [{ type: "artifact", artifactId: "gate" }] });
      const mark = hub.events.length;
      const c = await removeDep("c", { type: "artifact", artifactId: "gate" });
      expect(c).toMatchObject({ status: "ready", dependencies: [] });
      expect(since(mark).map((e) => [e.type, "to" in e.payload ? e.payload.to : null])).toEqual([
        ["contract.dependencies_changed", null],
        ["contract.status_changed", "ready"],
        ["message.sent", "dev"],
      ]);
      expect(since(mark)[0].payload).toEqual({ id: "c", removed: { type: "artifact", artifactId: "gate" } });
    });

    it("sends a ready contract back to pending when a new dependency is unmet", async () => {
      await create({ id: "c" });
      await create({ id: "other" });
      const c = await addDep("c", { type: "contract", contractId: "other" });
      expect(c).toMatchObject({ status: "pending", statusReason: "new dependency on contract:other is not satisfied" });
      await complete({ id: "other" });
      expect((await get("c")).status).toBe("ready");
    });

    it("keeps a ready contract ready when the new dependency is already met", async () => {
      await publish({ id: "spec" });
      await create({ id: "c" });
      expect(await addDep("c", { type: "artifact", artifactId: "spec" })).toMatchObject({
        status: "ready",
        dependencies: [{ type: "artifact", artifactId: "spec" }],
      });
    });

    it("explains, rather than crashes, when a removal finds a ready contract's dependencies unmet", async () => {
      await publish({ id: "spec" });
      await publish({ id: "extra" });
      await create({
        id: "c",
        dependencies: [
          { type: "artifact", artifactId: "spec" },
          { type: "artifact", artifactId: "extra" },
        ],
      });
      // What a snapshot rollback (docs/domain.md#rollback) does to an input: the version stays, marked rolled back.
      await hub.db.write("test.rollback", "operator", (tx) => tx.run(sql`UPDATE "ArtifactVersion" SET "status" = 'rolled_back' WHERE "seq" = 1`));
      const c = await removeDep("c", { type: "artifact", artifactId: "extra" });
      expect(c).toMatchObject({
        status: "pending",
        statusReason: "dependencies are no longer satisfied",
        dependencies: [{ type: "artifact", artifactId: "spec" }],
      });
    });

    it("lets the new watch drive resolution", async () => {
      await create({ id: "c", dependencies: [{ type: "artifact", artifactId: "gate" }] });
      await addDep("c", { type: "artifact", artifactId: "spec" });
      await publish({ id: "gate" });
      expect((await get("c")).status).toBe("pending");
      await publish({ id: "spec" });
      expect((await get("c")).status).toBe("ready");
    });
  });
});

describe("reopen", () => {
  it("starts a new attempt that does not re-complete on old evidence", async () => {
    await create({ id: "c", expectedOutputs: [{ artifactType: "schema-change" }], timeoutMs: 60_000 });
    const schema = { type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] } };
    await publish({ id: "user-schema", ...schema });
    expect(await get("c")).toMatchObject({ status: "completed", retryCount: 0 });

    const reopened = await reopen("c");
    expect(reopened).toMatchObject({
      status: "ready",
      retryCount: 1,
      statusReason: "reopened",
      outputs: null,
      pinnedInputs: null,
      completedAt: null,
      startedAt: null,
    });
    expect(reopened.deadlineAt!.getTime() - reopened.updatedAt.getTime()).toBe(60_000);
    expect(hub.events.findLast((e) => e.type === "contract.status_changed")!.payload).toMatchObject({
      from: "completed",
      to: "ready",
      operation: "reopen",
      retryCount: 1,
    });

    await publish({ id: "unrelated" });
    expect((await get("c")).status).toBe("ready");
    await publish({ id: "user-schema", ...schema });
    expect(await get("c")).toMatchObject({ status: "completed", outputs: [{ artifactId: "user-schema", version: 2 }] });
  });

  it("returns to pending when the dependencies are not met", async () => {
    await contractIn("pending");
    await fail("c");
    expect(await reopen("c")).toMatchObject({ status: "pending", retryCount: 1 });
  });

  it("sends ready dependents back to pending", async () => {
    await create({ id: "a" });
    await create({ id: "b", dependencies: [{ type: "contract", contractId: "a" }] });
    await complete({ id: "a" });
    expect(await statuses("a", "b")).toEqual(["completed", "ready"]);
    await reopen("a");
    expect(await get("b")).toMatchObject({ status: "pending", statusReason: "dependency 'a' was reopened" });
    await complete({ id: "a" });
    expect((await get("b")).status).toBe("ready");
  });

  it.each([0, 2])("is refused beyond maxRetries = %i, writing nothing", async (maxRetries) => {
    await create({ id: "c", maxRetries });
    for (let i = 0; i < maxRetries; i++) {
      await complete({ id: "c" });
      await reopen("c");
    }
    await complete({ id: "c" });
    const err = await refusedWithoutWriting(hub, () => reopen("c"));
    expect(err).toMatchObject({ code: "precondition_failed", details: { id: "c", retryCount: maxRetries, maxRetries } });
    expect(err.message).toBe(`contract 'c' has been reopened ${maxRetries} time(s); maxRetries is ${maxRetries}, so it cannot be reopened again`);
  });
});

describe("reassign", () => {
  it("hands in-progress work back to ready for the new assignee", async () => {
    await publish({ id: "spec" });
    await create({ id: "c", dependencies: [{ type: "artifact", artifactId: "spec" }] });
    expect((await start("c", DEV)).contract.pinnedInputs).toHaveLength(1);
    const mark = hub.events.length;
    const c = await reassign("c", "dev2");
    expect(c).toMatchObject({ assignee: "dev2", status: "ready", startedAt: null, pinnedInputs: null, statusReason: "reassigned from dev to dev2" });
    expect(since(mark).map((e) => [e.type, "to" in e.payload ? e.payload.to : undefined])).toEqual([
      ["contract.reassigned", "dev2"],
      ["contract.status_changed", "ready"],
      ["message.sent", "dev2"],
      ["message.sent", "dev"],
    ]);
    expect(since(mark)[0].payload).toEqual({ id: "c", from: "dev", to: "dev2" });
    expect((await refusal(start("c", DEV))).code).toBe("forbidden");
    expect((await start("c", member("dev2"))).contract.status).toBe("in_progress");
  });

  it("refuses the current assignee", async () => {
    await create({ id: "c" });
    const err = await refusedWithoutWriting(hub, () => reassign("c", "dev"));
    expect(issues(err)[0]).toMatchObject({ field: "assignee", rule: "different", received: "dev" });
  });
});

describe("permissions", () => {
  const MALLORY = member("mallory");
  const asActor = {
    start: (id: string, a: Principal) => start(id, a),
    complete: (id: string, a: Principal) => complete({ id }, a),
    fail: (id: string, a: Principal) => fail(id, a),
  };

  it.each(Object.keys(asActor) as Array<keyof typeof asActor>)("only the assignee (or an operator) may %s", async (op) => {
    await create({ id: "c", assignee: "dev" }, member("lead"));
    if (op !== "start") await start("c", DEV);
    const err = await refusedWithoutWriting(hub, () => asActor[op]("c", MALLORY));
    expect(err).toMatchObject({
      code: "forbidden",
      status: 403,
      details: { rule: "owner", operation: `contract.${op}`, principal: "mallory", team: "default" },
    });
    expect(err.message).toBe(`'mallory' (member) may not ${op} contract 'c' (assignee 'dev'): only its assignee, a lead of team 'default' or the operator may`);
    // The assigner is not the assignee either.
    expect((await refusal(asActor[op]("c", member("lead")))).code).toBe("forbidden");
    await asActor[op]("c", DEV);
    expect((await get("c")).status).toBe({ start: "in_progress", complete: "completed", fail: "failed" }[op]);
  });

  it("lets the assigner manage the contract and the assignee reopen it", async () => {
    const LEAD = member("lead");
    await create({ id: "c" }, LEAD);
    const refused = await refusedWithoutWriting(hub, () => reassign("c", "x", MALLORY));
    expect(refused.message).toBe(
      "'mallory' (member) may not reassign contract 'c' (assigner 'lead'): only its assigner, a lead of team 'default' or the operator may",
    );
    expect((await refusal(addDep("c", { type: "artifact", artifactId: "a" }, DEV))).code).toBe("forbidden");
    await addDep("c", { type: "artifact", artifactId: "a" }, LEAD);
    await removeDep("c", { type: "artifact", artifactId: "a" }, LEAD);
    await complete({ id: "c" }, DEV);
    expect((await refusal(reopen("c", MALLORY))).code).toBe("forbidden");
    await reopen("c", DEV);
    await complete({ id: "c" }, DEV);
    await reopen("c", LEAD);
    await reassign("c", "dev2", LEAD);
    expect(await get("c")).toMatchObject({ assignee: "dev2", retryCount: 2, status: "ready" });
  });

  it("lets an operator and the hub itself do anything", async () => {
    await create({ id: "c" }, member("lead"));
    await start("c", OPERATOR);
    await fail("c", SCHEDULER);
    await reopen("c", { name: "root", kind: "operator" });
    expect(await get("c")).toMatchObject({ status: "ready", retryCount: 1 });
  });
});

describe("inputs and lineage", () => {
  beforeEach(async () => {
    await create({ id: "schema", assignee: "db-dev", expectedOutputs: [{ artifactType: "schema-change" }] });
    await publish({ id: "user-schema", type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] } });
    await publish({ id: "style", data: { tone: "v1" } });
    await publish({ id: "style", data: { tone: "v2" } });
    await create({
      id: "api",
      assignee: "api-dev",
      inputs: { context: "build login" },
      dependencies: [
        { type: "contract", contractId: "schema" },
        { type: "artifact", artifactId: "style" },
      ],
      expectedOutputs: [{ artifactType: "api-contract" }],
    });
  });

  it("start pins the inputs, returns their data and records the reads", async () => {
    const r = await start("api", member("api-dev"));
    expect(r.inputs).toEqual({ context: "build login" });
    expect(r.resolvedInputs).toEqual([
      { artifactId: "user-schema", version: 1, type: "schema-change", name: "user-schema", data: { models: [{ name: "User", fields: ["email"] }] } },
      { artifactId: "style", version: 2, type: "custom", name: "style", data: { tone: "v2" } },
    ]);
    expect(r.contract).toMatchObject({
      status: "in_progress",
      statusReason: "started by api-dev",
      pinnedInputs: [
        { artifactId: "user-schema", version: 1, seq: 1 },
        { artifactId: "style", version: 2, seq: 3 },
      ],
    });
    expect(r.contract.startedAt).toBeInstanceOf(Date);
    const reads = await artifactReaders(hub, { team: "default", id: "style" });
    expect(reads.readers).toMatchObject([{ reader: "api-dev", reads: 1, lastVersion: 2 }]);
    expect(hub.events.filter((e) => e.type === "artifact.read").map((e) => e.subject)).toEqual(["artifact:user-schema@v1", "artifact:style@v2"]);
    expect(hub.events.filter(isEvent("contract.status_changed")).find((e) => e.payload.to === "in_progress")!.payload.pinnedInputs).toEqual([
      "user-schema@v1",
      "style@v2",
    ]);
  });

  it("completion links the outputs to the pinned inputs, not to newer versions", async () => {
    await start("api");
    await publish({ id: "style", data: { tone: "v3" } });
    const out = await apiContract("login-api");
    const c = await get("api");
    expect(c).toMatchObject({ status: "completed", outputs: [{ artifactId: "login-api", version: 1, seq: out.seq }] });
    expect(c.pinnedInputs!.map((p) => `${p.artifactId}@v${p.version}`)).toEqual(["user-schema@v1", "style@v2"]);
    const edges = (await snapshotTables(hub)).LineageEdge as LineageEdgeRow[];
    expect(edges.map(({ fromSeq, toSeq, kind, contractId }) => ({ fromSeq, toSeq, kind, contractId }))).toEqual([
      { fromSeq: 1, toSeq: out.seq, kind: "contract", contractId: "api" },
      { fromSeq: 3, toSeq: out.seq, kind: "contract", contractId: "api" },
    ]);
  });

  it("a contract completed without being started pins its inputs at completion", async () => {
    const out = await apiContract("login-api");
    expect((await get("api")).pinnedInputs).toEqual([
      { artifactId: "user-schema", version: 1, seq: 1 },
      { artifactId: "style", version: 2, seq: 3 },
    ]);
    expect((await snapshotTables(hub)).LineageEdge).toHaveLength(2);
    expect(out.effects).toEqual([{ contractId: "api", from: "ready", to: "completed", reason: "acceptance criteria met" }]);
  });
});

describe("timeouts", () => {
  it("fails overdue contracts with reason 'timeout' and leaves the others alone", async () => {
    await create({ id: "slow", timeoutMs: 1_000 });
    await create({ id: "working", timeoutMs: 1_000 });
    await start("working");
    await create({ id: "waiting", timeoutMs: 1_000, dependencies: [{ type: "artifact", artifactId: "gate" }] });
    await create({ id: "done", timeoutMs: 1_000 });
    await complete({ id: "done" });
    await create({ id: "later", timeoutMs: 3_600_000 });
    await create({ id: "no-deadline" });

    const now = new Date(Date.now() + 60_000);
    const mark = hub.events.length;
    expect(await failOverdue(hub, SCHEDULER, now)).toEqual(["default/slow", "default/working", "default/waiting"]);
    expect(await statuses("slow", "working", "waiting", "done", "later", "no-deadline")).toEqual(["failed", "failed", "failed", "completed", "ready", "ready"]);
    expect(await get("slow")).toMatchObject({ statusReason: "timeout" });
    // Three transitions, and each timeout tells the assignee (notices.test.ts).
    expect(since(mark).map((e) => e.type)).toEqual([
      "contract.status_changed",
      "message.sent",
      "contract.status_changed",
      "message.sent",
      "contract.status_changed",
      "message.sent",
    ]);
    expect(since(mark)[0]).toMatchObject({ principal: "scheduler", payload: { id: "slow", from: "ready", to: "failed", reason: "timeout" } });
    expect(await failOverdue(hub, SCHEDULER, now)).toEqual([]);
  });

  it("does nothing before the deadline", async () => {
    await create({ id: "slow", timeoutMs: 60_000 });
    expect(await failOverdue(hub, SCHEDULER)).toEqual([]);
    expect((await get("slow")).status).toBe("ready");
  });
});

describe("archived teams", () => {
  it("refuse every contract write but stay readable", async () => {
    await create({ id: "a", team: "old" });
    await create({ id: "b", team: "old" });
    await archiveTeam(hub, OPERATOR, { team: "old" });
    const writes: Array<() => Promise<unknown>> = [
      () => create({ id: "c", team: "old" }),
      () => startContract(hub, OPERATOR, ContractRefInput.parse({ id: "a", team: "old" })),
      () => completeContractCommand(hub, OPERATOR, CompleteContractInput.parse({ id: "a", team: "old" })),
      () => failContract(hub, OPERATOR, ReasonInput.parse({ id: "a", team: "old", reason: "x" })),
      () => reopenContract(hub, OPERATOR, ReopenContractInput.parse({ id: "a", team: "old" })),
      () => reassignContract(hub, OPERATOR, ReassignContractInput.parse({ id: "a", team: "old", assignee: "x" })),
      () => addDependency(hub, OPERATOR, DependencyChangeInput.parse({ id: "a", team: "old", dependency: { type: "artifact", artifactId: "x" } })),
      () => removeDependency(hub, OPERATOR, DependencyChangeInput.parse({ id: "a", team: "old", dependency: { type: "artifact", artifactId: "x" } })),
    ];
    for (const write of writes) {
      const err = await refusedWithoutWriting(hub, write);
      expect(err).toMatchObject({ code: "team_archived", message: "team 'old' is archived; it can be read but not changed" });
    }
    expect((await get("a", "old")).status).toBe("ready");
    expect((await listContracts(hub, ListContractsInput.parse({ team: "old" }))).items).toHaveLength(2);
  });
});
