/** Token budgets beside dollar budgets (docs/budgets.md#tokens): the same stops, counted in tokens. */
import { isEvent, type EventType } from "../../../lib/api/events.ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContractRefInput, CreateContractInput } from "../../../lib/api/contracts.ts";
import { ListBudgetsInput, SetBudgetInput } from "../../../lib/api/budgets.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import { createContract, getContract, startContract } from "../contracts/contracts.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import type { TurnTokens } from "../sessions/runtime.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { listBudgets, setBudget } from "./budgets.service.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
  for (const name of ["db-dev", "api-dev"]) {
    await k.teamSpawn({ team: "t", name });
    await k.launched(name);
  }
});
afterEach(() => hub.close());

const member = (name: string): Principal => ({ name, kind: "member" });
const set = async (input: Record<string, unknown>, by: Principal = OPERATOR) => setBudget(hub, by, parseOrThrow(SetBudgetInput, { team: "t", ...input }));
const list = () => listBudgets(hub, OPERATOR, parseOrThrow(ListBudgetsInput, { team: "t" }));
const of = <K extends EventType>(type: K) => hub.events.filter(isEvent(type));
const status = async (id: string) => (await getContract(hub, parseOrThrow(ContractRefInput, { team: "t", id }))).status;

/** Tokens as a turn reports them; only `counted` of them count against a token budget (cache reads do not). */
const used = (counted: number, cacheRead = 0): TurnTokens => ({ input: counted - 100, cacheWrite: 50, cacheRead, output: 50 });

/** One turn of `name` that used `tokens` and cost `cost`; null when it could not start. */
async function turn(name: string, tokens: TurnTokens, cost = 0.01) {
  await k.send({ name, message: "work" });
  const t = await k.startTurn(name);
  if (!t) return null;
  await k.finish(name, { interactionId: t.id, costDelta: cost, tokens });
  return t;
}

describe("token budgets", () => {
  it("stores each turn's tokens and counts input, cache writes and output against a token budget, not cache reads", async () => {
    const t = (await turn("db-dev", { input: 1000, cacheWrite: 500, cacheRead: 9000, output: 200 }))!;
    expect(
      await hub.db.read((s) => s.get(sql`SELECT "inputTokens","cacheWriteTokens","cacheReadTokens","outputTokens" FROM "Interaction" WHERE "id" = ${t.id}`)),
    ).toEqual({ inputTokens: 1000, cacheWriteTokens: 500, cacheReadTokens: 9000, outputTokens: 200 });
    await set({ scope: "member", target: "db-dev", amountTokens: 10_000, period: "month" });
    // A target may have one budget of each unit: the dollar budget is a second row, not a replacement.
    await set({ scope: "member", target: "db-dev", amountUsd: 2 });
    const views = await list();
    expect(views.map((v) => [v.unit, v.amountUsd, v.amountTokens])).toEqual([
      ["usd", 2, null],
      ["tokens", null, 10_000],
    ]);
    expect(views[1]).toMatchObject({ spentTokens: 1700, leftTokens: 8300, leftUsd: null, spentUsd: 0.01, usedUp: false, forecastUsd: null });
    expect(views[1]!.forecastTokens).toBeGreaterThan(1700);
    expect(views[0]).toMatchObject({ leftUsd: 1.99, leftTokens: null, forecastTokens: null });
  });

  it("keeps the next turn queued as `blocked: budget` once the team's tokens are used up, and starts it once raised", async () => {
    await set({ scope: "team", amountTokens: 3000 });
    await set({ scope: "team", amountUsd: 100 });
    // Running turns watch the tightest budget of each unit (runner.ts interrupts on either).
    await k.send({ name: "db-dev", message: "work" });
    const first = await k.startTurn("db-dev");
    expect(first!.budgets.map((b) => [b.budget.unit, b.spent])).toEqual([
      ["usd", 0],
      ["tokens", 0],
    ]);
    await k.finish("db-dev", { interactionId: first!.id, costDelta: 0.01, tokens: used(3200, 50_000) });
    expect(await turn("api-dev", used(100))).toBeNull();
    expect((await k.status("api-dev")).problem).toBe("blocked: budget — team 't' (tokens): 3.2k tokens spent of 3k tokens");
    expect(of("budget.exhausted").at(-1)?.payload).toMatchObject({ unit: "tokens", amountTokens: 3000, amountUsd: null, spentTokens: 3200 });
    await set({ scope: "team", amountTokens: 5000 });
    expect(of("budget.set").at(-1)?.payload).toMatchObject({ unit: "tokens", amountTokens: 5000, previousTokens: 3000, amountUsd: null });
    const started = await k.startTurn("api-dev");
    expect(started?.budgets.find((b) => b.budget.unit === "tokens")).toMatchObject({ spent: 3200 });
    expect((await k.status("api-dev")).problem).toBeNull();
  });

  it("warns and fails a contract in tokens as it does in dollars", async () => {
    await createContract(hub, OPERATOR, parseOrThrow(CreateContractInput, { team: "t", id: "schema", title: "schema", assignee: "db-dev" }));
    await startContract(hub, member("db-dev"), parseOrThrow(ContractRefInput, { team: "t", id: "schema" }));
    await set({ scope: "contract", target: "schema", amountTokens: 10_000, warnAt: 0.5 });
    await turn("db-dev", used(6000));
    expect(of("budget.warning").at(-1)?.payload.text).toBe(
      "Budget warning: contract 'schema' (tokens) has 6k tokens spent of 10k tokens (60%); the warning is set at 50%.",
    );
    await turn("db-dev", used(4500));
    expect(await status("schema")).toBe("failed");
    expect(of("contract.status_changed").at(-1)?.payload).toMatchObject({ reason: "budget", spentTokens: 10_500, amountTokens: 10_000 });
    expect(await turn("api-dev", used(100))).not.toBeNull();
  });

  it("lets a member budget a contract it assigned in tokens, within what its own token budget has left", async () => {
    await set({ scope: "member", target: "db-dev", amountTokens: 10_000 });
    await turn("db-dev", used(4000));
    await createContract(hub, member("db-dev"), parseOrThrow(CreateContractInput, { team: "t", id: "review", title: "review", assignee: "api-dev" }));
    const over = await refusedWithoutWriting(hub, () => set({ scope: "contract", target: "review", amountTokens: 7000 }, member("db-dev")));
    expect(issues(over)[0]).toMatchObject({
      field: "amountTokens",
      rule: "within_own_budget",
      message: "must fit within what member 'db-dev' (tokens) has left (6k tokens); 7k tokens needs 7k tokens more",
    });
    expect(await set({ scope: "contract", target: "review", amountTokens: 5000 }, member("db-dev"))).toMatchObject({ unit: "tokens", amountTokens: 5000 });
  });

  it("refuses 0, negative, fractional or non-numeric tokens, both amounts or neither, naming the field, writing nothing", async () => {
    const bad = async (input: Record<string, unknown>) => issues(await refusedWithoutWriting(hub, () => set(input)))[0];
    expect(await bad({ scope: "team", amountTokens: 0 })).toMatchObject({ field: "amountTokens", message: "must be at least 1 token" });
    expect(await bad({ scope: "team", amountTokens: -500 })).toMatchObject({ field: "amountTokens", message: "must be at least 1 token" });
    expect(await bad({ scope: "team", amountTokens: 1000.5 })).toMatchObject({ field: "amountTokens", message: "must be a whole number of tokens" });
    expect(await bad({ scope: "team", amountTokens: "lots" })).toMatchObject({ field: "amountTokens", message: "must be a number (tokens)" });
    expect(await bad({ scope: "team", amountTokens: 1e12 })).toMatchObject({ field: "amountTokens", message: "must be at most 1000000000" });
    expect(await bad({ scope: "team", amountUsd: 1, amountTokens: 1000 })).toMatchObject({
      field: "amountTokens",
      message: "must be left out when amountUsd is given (a budget has one amount: set a token budget on its own)",
    });
    expect(await bad({ scope: "team" })).toMatchObject({
      field: "amountUsd",
      message: "is required, or amountTokens (a budget has one amount: US dollars or tokens)",
    });
  });
});
