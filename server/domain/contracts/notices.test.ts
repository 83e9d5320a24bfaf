/**
 * Contract notices (docs/notices.md): the members concerned find
 * what happened to their contracts in their inbox, from whoever caused it, one message per member
 * per transaction, whether or not they have a live session. Wake-ups built on them are tested in
 * server/supervisor/wakeups.test.ts.
 */
import { isEvent } from "../../../lib/api/events.ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { CompleteContractInput, ContractRefInput, CreateContractInput, ReassignContractInput, ReopenContractInput } from "../../../lib/api/contracts.ts";
import { CreatePipelineInput } from "../../../lib/api/pipelines.ts";
import { ListEventsInput } from "../../../lib/api/teams.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { kit } from "../../testing/snapshot-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { createToken } from "../auth/tokens.service.ts";
import { inboxOf } from "../chat/messages.ts";
import { listEvents } from "../events/events.service.ts";
import { createPipeline } from "../pipelines/pipelines.service.ts";
import { PipelineRunner } from "../pipelines/runner.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { writeSnapshot } from "../snapshots/snapshot-store.ts";
import { completeContractCommand, createContract, createContractInTx, reassignContract, reopenContract, startContract } from "./contracts.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const member = (name: string): Principal => ({ name, kind: "member" });
const QA = member("qa-dev");
const API = member("api-dev");

const create = (input: Record<string, unknown>, by: Principal = OPERATOR) =>
  createContract(hub, by, CreateContractInput.parse({ title: "Work", assignee: "api-dev", ...input }));
const complete = (id: string, by: Principal) => completeContractCommand(hub, by, CompleteContractInput.parse({ id }));
const reopen = (id: string, reason: string) => reopenContract(hub, OPERATOR, ReopenContractInput.parse({ id, reason }));
const publish = (input: Record<string, unknown>, by: Principal = OPERATOR) =>
  publishArtifact(hub, by, PublishArtifactInput.parse({ type: "custom", data: {}, ...input }));

/** A member's contract notices, oldest first, as [sender, text]. */
const notices = async (to: string) =>
  (await hub.db.read((sql) => inboxOf(sql, "default", to)))
    .filter((m) => m.kind === "contract")
    .reverse()
    .map((m) => [m.sender, m.text]);
/** Deliveries since a mark, as [recipient, actionable]. */
const sent = (mark: number) =>
  hub.events
    .slice(mark)
    .filter((e) => e.type === "message.sent")
    .map((e) => [e.payload.to, e.payload.actionable]);
const READY = (id: string) =>
  `It is ready: start it with contract_start({id: "${id}"}), do the work, and publish its outputs with artifact_publish (contractId "${id}").`;

describe("a contract created for someone else", () => {
  it("tells the assignee, from its creator, what it is and what to do, and copies the creation to the operator feed", async () => {
    const mark = hub.events.length;
    await create(
      {
        id: "fix-sql-injection",
        title: "Fix SQL injection in login endpoint",
        priority: "high",
        inputs: { context: "Parameterized queries missing in /login handler" },
        expectedOutputs: [{ artifactType: "api-contract" }],
      },
      QA,
    );
    expect(await notices("api-dev")).toEqual([
      [
        "qa-dev",
        `qa-dev created contract 'fix-sql-injection' (Fix SQL injection in login endpoint) for you, priority high. Context: "Parameterized queries missing in /login handler". ${READY("fix-sql-injection")}`,
      ],
    ]);
    expect(await notices("operator")).toEqual([
      ["qa-dev", "qa-dev created contract 'fix-sql-injection' (Fix SQL injection in login endpoint) for api-dev; it is ready."],
    ]);
    expect(sent(mark)).toEqual([
      ["api-dev", true],
      ["operator", false],
    ]);
  });

  it("says a pending one waits, with nothing to do yet; the operator is not told what it did itself", async () => {
    await create({ id: "setup-schema", assignee: "db-dev" });
    const mark = hub.events.length;
    await create({ id: "build-api", title: "Build the API", dependencies: [{ type: "contract", contractId: "setup-schema" }] });
    expect(await notices("api-dev")).toEqual([
      [
        "operator",
        "operator created contract 'build-api' (Build the API) for you. It is pending until setup-schema is done; you will be told when it is ready.",
      ],
    ]);
    expect(sent(mark)).toEqual([["api-dev", false]]);
    expect(await notices("operator")).toEqual([]);
  });

  it("is not sent to a member for its own creation, but the operator feed still hears of it", async () => {
    await create({ id: "mine" }, API);
    expect(await notices("api-dev")).toEqual([]);
    expect(await notices("operator")).toEqual([["api-dev", "api-dev created contract 'mine' (Work) for api-dev; it is ready."]]);
  });
});

describe("who sees them", () => {
  it("the recipient and the sender read the notice's event; other members do not", async () => {
    await create({ id: "fix" }, QA);
    const seen = async (p: Principal) =>
      (await listEvents(hub, p, ListEventsInput.parse({ type: "message.sent" }))).events.filter(isEvent("message.sent")).map((e) => e.payload.to);
    expect([await seen(API), await seen(QA), await seen(member("ui-dev")), await seen(OPERATOR)]).toEqual([
      ["api-dev"],
      ["operator", "api-dev"],
      [],
      ["operator", "api-dev"],
    ]);
  });
});

describe("a contract that becomes ready through a cascade", () => {
  it("tells each assignee once per transaction, however many of its contracts moved, from the member whose work completed them", async () => {
    await create({ id: "a" });
    await create({ id: "b1", assignee: "qa-dev", dependencies: [{ type: "contract", contractId: "a" }] });
    await create({ id: "b2", assignee: "qa-dev", dependencies: [{ type: "contract", contractId: "a" }] });
    await create({ id: "c", assignee: "ui-dev", dependencies: [{ type: "contract", contractId: "a" }] });
    await create({ id: "next", dependencies: [{ type: "contract", contractId: "a" }] });
    await startContract(hub, API, ContractRefInput.parse({ id: "a" }));
    const mark = hub.events.length;
    await complete("a", API);
    // api-dev is not told it completed a, but its own next contract became ready: work to pick up.
    expect(sent(mark)).toEqual([
      ["qa-dev", true],
      ["ui-dev", true],
      ["api-dev", true],
    ]);
    const step = (id: string) => `Contract '${id}' (Work): pending → ready (dependencies satisfied). ${READY(id)}`;
    expect((await notices("qa-dev")).at(-1)).toEqual(["api-dev", `2 contract notices:\n- ${step("b1")}\n- ${step("b2")}`]);
    expect((await notices("ui-dev")).at(-1)).toEqual(["api-dev", step("c")]);
    expect((await notices("api-dev")).at(-1)).toEqual(["api-dev", step("next")]);
  });

  it("reports the net change: made ready and completed in one transaction reads completed, with nothing to do", async () => {
    await publish({ id: "spec" });
    await create({ id: "a" });
    await create({
      id: "x",
      assignee: "qa-dev",
      dependencies: [{ type: "contract", contractId: "a" }],
      acceptanceCriteria: [{ type: "artifact_published", artifactId: "spec" }],
    });
    const mark = hub.events.length;
    await complete("a", API);
    expect((await notices("qa-dev")).at(-1)).toEqual(["api-dev", "Contract 'x' (Work): pending → completed (acceptance criteria met). It is completed."]);
    expect(sent(mark)).toEqual([["qa-dev", false]]);
  });
});

describe("reopen", () => {
  it("tells the assignee why, and the assignees of dependents that they wait again", async () => {
    await create({ id: "build-api", title: "Build the API" });
    await create({ id: "write-tests", assignee: "qa-dev", dependencies: [{ type: "contract", contractId: "build-api" }] });
    await complete("build-api", API);
    const mark = hub.events.length;
    await reopen("build-api", "Tests failing: 3 failures");
    expect((await notices("api-dev")).at(-1)).toEqual([
      "operator",
      `operator reopened contract 'build-api' (Build the API) (reopen 1 of at most 3), reason: Tests failing: 3 failures. ${READY("build-api")}`,
    ]);
    expect((await notices("qa-dev")).at(-1)).toEqual([
      "operator",
      "Contract 'write-tests' (Work): ready → pending (dependency 'build-api' was reopened). It is pending until build-api is done; you will be told when it is ready.",
    ]);
    expect(sent(mark)).toEqual([
      ["api-dev", true],
      ["qa-dev", false],
    ]);
  });

  it("by a pipeline: from the pipeline's creator, through the pipeline", async () => {
    await createToken(hub, OPERATOR, { name: "qa-dev", kind: "member" });
    await create({ id: "build-api", title: "Build the API", expectedOutputs: [{ artifactType: "api-contract" }] }, QA);
    const rules = [
      {
        trigger: { type: "artifact_published", artifactType: "test-results" },
        condition: "data.failed > 0",
        action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" },
      },
    ];
    await createPipeline(hub, QA, CreatePipelineInput.parse({ id: "ci-loop", rules }));
    await publish({ id: "api-auth", type: "api-contract", data: { endpoints: [{ method: "POST", path: "/login" }] } }, API);
    await publish({ id: "tests-auth", type: "test-results", data: { total: 10, passed: 8, failed: 2 } }, QA);
    await new PipelineRunner(hub).drain();
    expect((await notices("api-dev")).at(-1)).toEqual([
      "qa-dev",
      `qa-dev through pipeline:ci-loop reopened contract 'build-api' (Build the API) (reopen 1 of at most 3), reason: Tests failing: 2 failures. ${READY("build-api")}`,
    ]);
  });
});

describe("reassign", () => {
  it("tells the new assignee it is theirs now and the old one to stop working on it", async () => {
    await create({ id: "c", assignee: "dev" });
    await startContract(hub, member("dev"), ContractRefInput.parse({ id: "c" }));
    const mark = hub.events.length;
    await reassignContract(hub, OPERATOR, ReassignContractInput.parse({ id: "c", assignee: "dev2" }));
    expect(await notices("dev2")).toEqual([["operator", `Contract 'c' (Work) is now yours, reassigned by operator (it was dev's). ${READY("c")}`]]);
    expect((await notices("dev")).at(-1)).toEqual(["operator", "Contract 'c' (Work) is no longer yours: operator reassigned it to dev2. Stop working on it."]);
    expect(sent(mark)).toEqual([
      ["dev2", true],
      ["dev", true],
    ]);
  });

  it("has nothing for the old assignee to do when it had not started", async () => {
    await create({ id: "c", assignee: "dev" });
    const mark = hub.events.length;
    await reassignContract(hub, OPERATOR, ReassignContractInput.parse({ id: "c", assignee: "dev2" }));
    expect(sent(mark)).toEqual([
      ["dev2", true],
      ["dev", false],
    ]);
  });
});

describe("rollback and replay", () => {
  it("tell each member once, naming the rollback, with their contracts' net change", async () => {
    const k = kit(hub);
    await create({ id: "a", assignee: "ann" });
    await create({ id: "b", assignee: "bob", dependencies: [{ type: "contract", contractId: "a" }] });
    await k.snapshot({ id: "s" });
    await complete("a", member("ann"));
    const mark = hub.events.length;
    await k.rollback("s");
    expect(sent(mark)).toEqual([
      ["ann", true],
      ["bob", false],
    ]);
    const told = "The rollback to snapshot 's' by operator changed your contracts:";
    expect((await notices("ann")).at(-1)).toEqual(["operator", `${told}\n- Contract 'a' (Work): completed → ready (dependencies satisfied). ${READY("a")}`]);
    expect((await notices("bob")).at(-1)).toEqual([
      "operator",
      `${told}\n- Contract 'b' (Work): ready → pending. It is pending until a is done; you will be told when it is ready.`,
    ]);
  });

  it("leave out a contract the rollback puts back where it was, though resolution moved it on the way", async () => {
    await publish({ id: "spec" });
    await create({ id: "x", assignee: "dev", dependencies: [{ type: "artifact", artifactId: "spec" }] });
    const state = await kit(hub).state();
    // Captured a moment before resolution ran: pending although spec@v1 is there; rollback makes it ready again.
    const stale = { ...state, contracts: state.contracts.map((c) => ({ ...c, status: "pending", statusReason: null })) };
    await hub.db.write("test.snapshot", "operator", (tx) => writeSnapshot(tx, OPERATOR, "default", { id: "early", label: "", kind: "manual" }, stale));
    const mark = hub.events.length;
    const r = await kit(hub).rollback("early");
    expect(
      hub.events
        .slice(mark)
        .filter((e) => e.type === "contract.status_changed")
        .map((e) => [e.payload.from, e.payload.to]),
    ).toEqual([["pending", "ready"]]);
    expect([r.membersNotified, sent(mark)]).toEqual([0, []]);
  });
});

describe("nothing is sent", () => {
  it("for a refused command", async () => {
    await create({ id: "once", maxRetries: 0 });
    await complete("once", API);
    await refusedWithoutWriting(hub, () => reopen("once", "again"));
    await refusedWithoutWriting(hub, () => create({ id: "once" }, QA));
  });

  it("for a preview (dry run), which runs the same notices and rolls them back", async () => {
    const before = hub.events.length;
    const preview = await hub.db.write(
      "contract.create",
      QA.name,
      (tx) => createContractInTx(tx, QA, CreateContractInput.parse({ id: "x", title: "X", assignee: "api-dev" })),
      { dryRun: true },
    );
    expect(preview.status).toBe("ready");
    expect(await notices("api-dev")).toEqual([]);
    expect(hub.events.length).toBe(before);
  });
});
