import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SetBudgetInput } from "../../../lib/api/budgets.ts";
import { CreateContractInput, ReasonInput } from "../../../lib/api/contracts.ts";
import { scenarioCommands } from "../../testing/lineage-scenario.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { setBudget } from "../budgets/budgets.service.ts";
import { windowOf } from "../budgets/budgets.repo.ts";
import { createContract, failContract } from "../contracts/contracts.service.ts";
import { OPERATOR } from "../principal.ts";
import { decideApproval } from "../sessions/approvals.ts";
import { detectStalls, requestApproval } from "../sessions/runtime.ts";
import { fillDays } from "./costs.ts";
import { overview } from "./overview.service.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
});
afterEach(() => hub.close());

/** A session that ran one turn costing `cost`, which ended on `day` (UTC). */
async function ranTurn(name: string, cost: number, day: string, team = "default") {
  await k.spawn({ team, name, prompt: "go" });
  await k.launched(name);
  const turn = (await k.startTurn(name))!;
  await k.finish(name, { interactionId: turn.id, costDelta: cost });
  await hub.db.write("test.sql", "operator", (tx) => tx.run(`UPDATE "Interaction" SET "endedAt" = ? WHERE "id" = ?`, [new Date(`${day}T12:00:00Z`), turn.id]));
}

describe("overview: needs attention", () => {
  it("lists pending approvals, stalled sessions and sessions with a problem, failed contracts and stale artifacts of the team only", async () => {
    await k.spawn({ name: "stuck", prompt: "go" });
    await k.launched("stuck");
    await k.startTurn("stuck");
    await detectStalls(hub, -1000);

    await k.spawn({ name: "waiter", prompt: "go" });
    await k.launched("waiter");
    await k.startTurn("waiter");
    await requestApproval(hub, await k.pk("waiter"), {
      requestId: "r1",
      toolName: "Bash",
      input: { command: "rm -rf build" },
      reason: "edit preset asks before running Bash",
    });

    await k.spawn({ name: "broken" });
    await k.launched("broken");
    await k.exit("broken", "failed");
    await k.spawn({ name: "done" });
    await k.launched("done");
    await k.exit("done", "stopped");
    await k.spawn({ name: "spender", prompt: "go", safety: { maxCostUsd: 0.05 } });
    await k.launched("spender");
    await k.finish("spender", { interactionId: (await k.startTurn("spender"))!.id, costDelta: 0.4 });
    await k.exit("spender", "stopped");
    await k.spawn({ name: "unlucky", prompt: "go" });
    await k.launched("unlucky");
    await k.finish("unlucky", { interactionId: (await k.startTurn("unlucky"))!.id, status: "error", isError: true, error: "API Error: 500 boom" });
    await k.spawn({ name: "healthy", prompt: "go" });
    await k.launched("healthy");
    await k.finish("healthy", { interactionId: (await k.startTurn("healthy"))!.id });

    const { publish, contract } = scenarioCommands(hub);
    await contract({ id: "ship-it", assignee: "bob" });
    await failContract(hub, OPERATOR, ReasonInput.parse({ id: "ship-it", reason: "tests never passed" }));
    await contract({ id: "fine", assignee: "bob" });
    await publish({ id: "schema", data: { v: 1 } });
    await publish({ id: "api", data: {}, derivedFrom: ["schema@v1"] });
    await publish({ id: "schema", data: { v: 2 } });

    await k.spawn({ team: "other", name: "elsewhere", prompt: "go" });
    await k.launched("elsewhere");
    await k.startTurn("elsewhere");
    await requestApproval(hub, await k.pk("elsewhere"), { requestId: "r2", toolName: "Write", input: {}, reason: "asks" });

    const { attention } = await overview(hub, OPERATOR, { team: "default" });
    expect(attention.approvals).toEqual([
      expect.objectContaining({
        session: "waiter",
        toolName: "Bash",
        input: { command: "rm -rf build" },
        reason: "edit preset asks before running Bash",
        expiresAt: expect.any(Date),
      }),
    ]);
    expect(attention.stalledSessions).toEqual([expect.objectContaining({ name: "stuck", status: "busy", stalledAt: expect.any(Date) })]);
    expect(attention.sessionProblems.map(({ name, status, problem }) => ({ name, status, problem }))).toEqual([
      { name: "unlucky", status: "idle", problem: "last turn failed: API Error: 500 boom" },
      { name: "spender", status: "stopped", problem: "cost limit: $0.40 spent of $0.05" },
      { name: "broken", status: "failed", problem: "failed (exited with code 0)" },
    ]);
    expect(attention.failedContracts).toEqual([expect.objectContaining({ id: "ship-it", assignee: "bob", statusReason: "tests never passed" })]);
    expect(attention.staleArtifacts).toEqual([
      expect.objectContaining({
        artifactId: "api",
        version: 1,
        reasons: [{ kind: "superseded", root: "schema@v1", current: "schema@v2", path: [{ version: "api@v1", input: "schema@v1", via: "derivedFrom" }] }],
      }),
    ]);

    expect((await overview(hub, OPERATOR, { team: "other" })).attention.approvals.map((a) => a.session)).toEqual(["elsewhere"]);
  });

  it("is empty for a quiet team", async () => {
    expect((await overview(hub, OPERATOR, { team: "default" })).attention).toEqual({
      approvals: [],
      stalledSessions: [],
      sessionProblems: [],
      failedContracts: [],
      staleArtifacts: [],
      budgets: [],
    });
  });

  it("a decided approval leaves the list", async () => {
    await k.spawn({ name: "waiter", prompt: "go" });
    await k.launched("waiter");
    await k.startTurn("waiter");
    const a = await requestApproval(hub, await k.pk("waiter"), { requestId: "r1", toolName: "Bash", input: {}, reason: "asks" });
    expect((await overview(hub, OPERATOR, { team: "default" })).attention.approvals).toHaveLength(1);
    await decideApproval(hub, OPERATOR, { name: "waiter", approvalId: a!.id, decision: "deny" });
    expect((await overview(hub, OPERATOR, { team: "default" })).attention.approvals).toEqual([]);
  });
});

describe("overview: costs", () => {
  it("totals per session and per UTC day of the interactions' end, for the team only", async () => {
    await ranTurn("a", 0.25, "2026-03-01");
    await ranTurn("b", 1.5, "2026-03-03");
    await ranTurn("c", 0.5, "2026-03-03");
    await k.spawn({ name: "idle-one" });
    await ranTurn("x", 9, "2026-03-02", "other");

    const { costs } = await overview(hub, OPERATOR, { team: "default" });
    expect(costs.totalUsd).toBeCloseTo(2.25);
    expect(costs.perSession).toEqual([
      { name: "b", status: "idle", costUsd: 1.5 },
      { name: "c", status: "idle", costUsd: 0.5 },
      { name: "a", status: "idle", costUsd: 0.25 },
    ]);
    expect(costs.perDay).toEqual([
      { day: "2026-02-25", costUsd: 0 },
      { day: "2026-02-26", costUsd: 0 },
      { day: "2026-02-27", costUsd: 0 },
      { day: "2026-02-28", costUsd: 0 },
      { day: "2026-03-01", costUsd: 0.25 },
      { day: "2026-03-02", costUsd: 0 },
      { day: "2026-03-03", costUsd: 2 },
    ]);
    const other = (await overview(hub, OPERATOR, { team: "other" })).costs;
    expect(other).toMatchObject({ totalUsd: 9, perSession: [{ name: "x", status: "idle", costUsd: 9 }] });
    expect(other.perDay.filter((d) => d.costUsd > 0)).toEqual([{ day: "2026-03-02", costUsd: 9 }]);
  });

  it("per member and per contract, beside their budgets: a monthly budget's figure is its month's", async () => {
    await ranTurn("a", 0.25, "2026-03-01");
    await ranTurn("b", 1.5, "2026-03-03");
    await ranTurn("c", 0.5, "2026-03-03");
    await createContract(hub, OPERATOR, CreateContractInput.parse({ id: "k", title: "Work", assignee: "b" }));
    const budget = (input: Record<string, unknown>) => setBudget(hub, OPERATOR, SetBudgetInput.parse({ team: "default", ...input }));
    await budget({ scope: "member", target: "a", amountUsd: 1, period: "month" });
    await budget({ scope: "member", target: "c", amountUsd: 0.4 });
    await budget({ scope: "contract", target: "k", amountUsd: 2 });
    await budget({ scope: "team", amountUsd: 10 });

    const { costs } = await overview(hub, OPERATOR, { team: "default" });
    // a's cost ended in March, outside this month's window.
    expect(costs.perMember).toEqual([
      { name: "b", costUsd: 1.5, window: "lifetime", budgetUsd: null },
      { name: "c", costUsd: 0.5, window: "lifetime", budgetUsd: 0.4 },
      { name: "a", costUsd: 0, window: windowOf("month", new Date()).key, budgetUsd: 1 },
    ]);
    expect(costs.perContract).toEqual([{ name: "k", costUsd: 0, window: "lifetime", budgetUsd: 2 }]);
  });

  it("a team without sessions has no cost and no days", async () => {
    expect((await overview(hub, OPERATOR, { team: "default" })).costs).toEqual({ totalUsd: 0, perSession: [], perMember: [], perContract: [], perDay: [] });
  });

  it("shows from 7 to 30 days, ending at the last day with cost", () => {
    const days = fillDays([
      { day: "2026-01-01", costUsd: 1 },
      { day: "2026-02-15", costUsd: 2 },
    ]);
    expect(days).toHaveLength(30);
    expect(days[0]).toEqual({ day: "2026-01-17", costUsd: 0 });
    expect(days.at(-1)).toEqual({ day: "2026-02-15", costUsd: 2 });
    expect(fillDays([{ day: "2026-03-01", costUsd: 1 }]).map((d) => d.day)).toEqual([
      "2026-02-23",
      "2026-02-24",
      "2026-02-25",
      "2026-02-26",
      "2026-02-27",
      "2026-02-28",
      "2026-03-01",
    ]);
  });
});
