import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SetBudgetInput } from "../../../lib/api/budgets.ts";
import { CreateContractInput, ReasonInput } from "../../../lib/api/contracts.ts";
import { scenarioCommands } from "../../testing/lineage-scenario.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import { TeamRefInput } from "../../../lib/api/teams.ts";
import { setBudget } from "../budgets/budgets.service.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { windowOf } from "../budgets/budgets.repo.ts";
import { createContract, failContract } from "../contracts/contracts.service.ts";
import { OPERATOR } from "../principal.ts";
import { decideApproval } from "../sessions/approvals.ts";
import { detectStalls, requestApproval } from "../sessions/runtime.ts";
import { ATTENTION_LIMIT } from "./causes.ts";
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
async function ranTurn(name: string, cost: number, day: string, team = "default", model?: string, runtime?: string) {
  await k.spawn({ team, name, prompt: "go", ...(model ? { model } : {}), ...(runtime ? { runtime } : {}) });
  await k.launched(name);
  const turn = (await k.startTurn(name))!;
  await k.finish(name, { interactionId: turn.id, costDelta: cost });
  await hub.db.write("test.sql", "operator", (tx) => tx.run(sql`UPDATE "Interaction" SET "endedAt" = ${new Date(`${day}T12:00:00Z`)} WHERE "id" = ${turn.id}`));
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
      {
        cause: "waiting to run Bash",
        count: 1,
        items: [
          expect.objectContaining({
            session: "waiter",
            toolName: "Bash",
            input: { command: "rm -rf build" },
            reason: "edit preset asks before running Bash",
            expiresAt: expect.any(Date),
          }),
        ],
      },
    ]);
    expect(attention.stalledSessions).toEqual([
      { cause: "silent while busy", count: 1, items: [expect.objectContaining({ name: "stuck", status: "busy", stalledAt: expect.any(Date) })] },
    ]);
    const problems = attention.sessionProblems.map((g) => ({
      cause: g.cause,
      count: g.count,
      items: g.items.map(({ name, status, problem }) => ({ name, status, problem })),
    }));
    expect(problems).toEqual([
      { cause: "last turn failed", count: 1, items: [{ name: "unlucky", status: "idle", problem: "last turn failed: API Error: 500 boom" }] },
      { cause: "process failed", count: 1, items: [{ name: "broken", status: "failed", problem: "failed (exited with code 0)" }] },
      { cause: "stopped by a limit", count: 1, items: [{ name: "spender", status: "stopped", problem: "cost limit: $0.40 spent of $0.05" }] },
    ]);
    expect(attention.failedContracts).toEqual([
      {
        cause: "failed: tests never passed",
        count: 1,
        items: [expect.objectContaining({ id: "ship-it", assignee: "bob", statusReason: "tests never passed" })],
      },
    ]);
    expect(attention.staleArtifacts).toEqual([
      {
        cause: "schema@v1 was superseded by schema@v2",
        kind: "superseded",
        root: "schema@v1",
        current: "schema@v2",
        count: 1,
        items: [
          expect.objectContaining({
            artifactId: "api",
            version: 1,
            reasons: [{ kind: "superseded", root: "schema@v1", current: "schema@v2", path: [{ version: "api@v1", input: "schema@v1", via: "derivedFrom" }] }],
          }),
        ],
      },
    ]);

    expect((await overview(hub, OPERATOR, { team: "other" })).attention.approvals.flatMap((g) => g.items.map((a) => a.session))).toEqual(["elsewhere"]);
  });

  it("is empty for a quiet team", async () => {
    expect((await overview(hub, OPERATOR, { team: "default" })).attention).toEqual({
      approvals: [],
      stalledSessions: [],
      sessionProblems: [],
      failedContracts: [],
      staleArtifacts: [],
      budgets: [],
      accounts: [],
    });
  });

  it("a decided approval leaves the list", async () => {
    await k.spawn({ name: "waiter", prompt: "go" });
    await k.launched("waiter");
    await k.startTurn("waiter");
    const a = await requestApproval(hub, await k.pk("waiter"), { requestId: "r1", toolName: "Bash", input: {}, reason: "asks" });
    expect((await overview(hub, OPERATOR, { team: "default" })).attention.approvals).toMatchObject([{ count: 1 }]);
    await decideApproval(hub, OPERATOR, { name: "waiter", approvalId: a!.id, decision: "deny" });
    expect((await overview(hub, OPERATOR, { team: "default" })).attention.approvals).toEqual([]);
  });
});

describe("overview: needs attention grouped by cause", () => {
  it("one upstream change is one group, however many artifacts it made stale, directly or through others", async () => {
    const { publish } = scenarioCommands(hub);
    await publish({ id: "schema-user-model", data: { v: 1 } });
    await publish({ id: "config", data: { v: 1 } });
    for (let i = 0; i < 24; i++) await publish({ id: `api-${String(i).padStart(2, "0")}`, data: {}, derivedFrom: ["schema-user-model@v1"] });
    // Stale through api-00, and through the schema a second time: still counted once for the change.
    await publish({ id: "client", data: {}, derivedFrom: ["api-00@v1", "schema-user-model@v1"] });
    await publish({ id: "deploy", data: {}, derivedFrom: ["config@v1", "schema-user-model@v1"] });
    await publish({ id: "schema-user-model", data: { v: 2 } });
    await publish({ id: "config", data: { v: 2 } });

    const groups = (await overview(hub, OPERATOR, { team: "default" })).attention.staleArtifacts;
    expect(groups.map(({ cause, kind, root, current, count }) => ({ cause, kind, root, current, count }))).toEqual([
      {
        cause: "schema-user-model@v1 was superseded by schema-user-model@v2",
        kind: "superseded",
        root: "schema-user-model@v1",
        current: "schema-user-model@v2",
        count: 26,
      },
      { cause: "config@v1 was superseded by config@v2", kind: "superseded", root: "config@v1", current: "config@v2", count: 1 },
    ]);
    expect(groups[0].items.map((a) => a.artifactId)).toEqual([
      ...Array.from({ length: 24 }, (_, i) => `api-${String(i).padStart(2, "0")}`),
      "client",
      "deploy",
    ]);
    // An artifact with two causes is in both groups.
    expect(groups[1].items.map((a) => a.artifactId)).toEqual(["deploy"]);
  });

  it("counts every item but carries at most 50 of a group", async () => {
    const { publish } = scenarioCommands(hub);
    await publish({ id: "root", data: { v: 1 } });
    for (let i = 0; i < 55; i++) await publish({ id: `leaf-${String(i).padStart(2, "0")}`, data: {}, derivedFrom: ["root@v1"] });
    await publish({ id: "root", data: { v: 2 } });
    const [group] = (await overview(hub, OPERATOR, { team: "default" })).attention.staleArtifacts;
    expect(group.count).toBe(55);
    expect(group.items).toHaveLength(ATTENTION_LIMIT);
    expect(group.items.at(-1)!.artifactId).toBe("leaf-49");
  });

  it("approvals by the tool they wait on and failed contracts by their reason, the largest group first", async () => {
    for (const [name, tool] of [
      ["a", "Write"],
      ["b", "Bash"],
      ["c", "Bash"],
    ]) {
      await k.spawn({ name, prompt: "go" });
      await k.launched(name);
      await k.startTurn(name);
      await requestApproval(hub, await k.pk(name), { requestId: `r-${name}`, toolName: tool, input: {}, reason: "asks" });
    }
    const { contract } = scenarioCommands(hub);
    for (const [id, reason] of [
      ["k1", "budget"],
      ["k2", "tests never passed"],
      ["k3", "budget"],
    ]) {
      await contract({ id, assignee: "bob" });
      await failContract(hub, OPERATOR, ReasonInput.parse({ id, reason }));
    }
    const { attention } = await overview(hub, OPERATOR, { team: "default" });
    expect(attention.approvals.map((g) => [g.cause, g.count, g.items.map((a) => a.session).sort()])).toEqual([
      ["waiting to run Bash", 2, ["b", "c"]],
      ["waiting to run Write", 1, ["a"]],
    ]);
    expect(attention.failedContracts.map((g) => [g.cause, g.count, g.items.map((c) => c.id).sort()])).toEqual([
      ["failed: budget", 2, ["k1", "k3"]],
      ["failed: tests never passed", 1, ["k2"]],
    ]);
  });

  it("refuses a team name that is not one, naming the field, before reading anything", () => {
    expect(() => parseOrThrow(TeamRefInput, { team: "no such/team" })).toThrow(/^team: /);
    expect(() => parseOrThrow(TeamRefInput, { team: 7 })).toThrow(/^team: /);
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

  it("per model and per runtime the sessions ran on, and every budget with what it has left", async () => {
    await ranTurn("a", 0.25, "2026-03-01", "default", "sonnet");
    await ranTurn("b", 1.5, "2026-03-03", "default", "opus");
    await ranTurn("c", 0.5, "2026-03-03", "default", "sonnet");
    await ranTurn("d", 0.125, "2026-03-03");
    await ranTurn("x", 2, "2026-03-03", "default", undefined, "codex");
    await k.spawn({ name: "never-ran", model: "haiku" });
    const budget = (input: Record<string, unknown>) => setBudget(hub, OPERATOR, SetBudgetInput.parse({ team: "default", ...input }));
    await budget({ scope: "team", amountUsd: 10 });
    await budget({ scope: "member", target: "c", amountUsd: 0.4 });

    const { costs } = await overview(hub, OPERATOR, { team: "default" });
    expect(costs.perModel).toEqual([
      { model: "gpt-5.5", sessions: 1, costUsd: 2 },
      { model: "opus", sessions: 1, costUsd: 1.5 },
      { model: "sonnet", sessions: 2, costUsd: 0.75 },
      { model: "default", sessions: 1, costUsd: 0.125 },
    ]);
    expect(costs.perRuntime).toEqual([
      { runtime: "claude", sessions: 4, costUsd: 2.375 },
      { runtime: "codex", sessions: 1, costUsd: 2 },
    ]);
    expect(costs.budgets.map(({ scope, target, amountUsd, spentUsd, leftUsd, usedUp }) => ({ scope, target, amountUsd, spentUsd, leftUsd, usedUp }))).toEqual([
      { scope: "team", target: null, amountUsd: 10, spentUsd: 4.375, leftUsd: 5.625, usedUp: false },
      { scope: "member", target: "c", amountUsd: 0.4, spentUsd: 0.5, leftUsd: 0, usedUp: true },
    ]);
  });

  it("a team without sessions has no cost and no days", async () => {
    expect((await overview(hub, OPERATOR, { team: "default" })).costs).toEqual({
      totalUsd: 0,
      perSession: [],
      perMember: [],
      perContract: [],
      perModel: [],
      perRuntime: [],
      perDay: [],
      budgets: [],
    });
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
