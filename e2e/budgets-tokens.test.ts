/**
 * Token budgets with the real CLI (docs/budgets.md#tokens): the same hard stop and in-flight
 * interruption as dollar budgets, counted in the tokens the CLI reports and streams. The fake
 * model's `@usage <in> <out>` sets every call's usage; tokens do not depend on the model's price.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api, cli } from "./helpers/hub-process.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
const TEAM = "auth";
const run = (...args: string[]) => cli(sh.hub.dataDir, [...args, "--team", TEAM]);
const send = async (name: string, message: string, wait = true) => (await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message, wait })).body;
type View = { scope: string; target: string | null; unit: string; spentTokens: number; amountTokens: number | null; usedUp: boolean };
const budgets = () => JSON.parse(run("budget-list", "--json").stdout) as View[];
const tokenBudget = (target: string) => budgets().find((b) => b.target === target && b.unit === "tokens")!;

beforeAll(async () => {
  sh = await startSessionHub(directiveModel(), {}, { model: "claude-opus-4-5" });
  expect(run("budget-set", "member", "db-dev", "--tokens", "50000").stdout).toBe("member db-dev: 0 tokens spent of 50k tokens (lifetime), 50k tokens left\n");
  const put = await api(sh.hub, "PUT", "/api/budgets", { team: TEAM, scope: "member", target: "qa-dev", amountTokens: 30_000 });
  expect([put.status, put.body.unit, put.body.amountTokens, put.body.amountUsd]).toEqual([200, "tokens", 30_000, null]);
  // A dollar budget beside it, generous: the token budget is the one that binds.
  expect(run("budget-set", "member", "qa-dev", "--amount", "50").code).toBe(0);
  for (const name of ["db-dev", "qa-dev"]) {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name })).status).toBe(201);
    await waitForSession(sh.hub, name, (s) => s.status === "idle");
  }
}, 120_000);
afterAll(async () => sh?.close());

describe("a token budget", () => {
  it("once used up, keeps the member's next turn from starting until the operator raises it; then it runs", async () => {
    expect((await send("db-dev", "@usage 60000 0\n@reply big spend")).interaction.status).toBe("completed");
    // What the CLI reported for the turn is what is counted.
    expect(tokenBudget("db-dev")).toMatchObject({ usedUp: true, spentTokens: expect.any(Number) });
    expect(tokenBudget("db-dev").spentTokens).toBeGreaterThanOrEqual(60_000);
    expect(tokenBudget("db-dev").spentTokens).toBeLessThan(61_000);

    await send("db-dev", "after the stop", false);
    const s = await waitForSession(sh.hub, "db-dev", (x) => typeof x.problem === "string" && x.problem.startsWith("blocked: budget"));
    expect([s.status, s.problem]).toEqual([
      "idle",
      expect.stringMatching(/^blocked: budget — member 'db-dev' \(tokens\): 60(\.\d+)?k tokens spent of 50k tokens$/),
    ]);
    const history = (await api(sh.hub, "GET", `/api/sessions/db-dev/history`)).body.interactions as Array<{ status: string }>;
    expect(history.at(-1)).toMatchObject({ status: "queued" });

    expect(run("budget-set", "member", "db-dev", "--tokens", "200000").code).toBe(0);
    const after = await waitForSession(sh.hub, "db-dev", (x) => x.problem === null && x.status === "idle" && x.interactions === 2, 60_000);
    expect(after.lastOutput).toBe("pong: after the stop");
  }, 180_000);

  it("interrupts a turn in flight when its streamed tokens cross what was left: overshot by at most the call that crossed it", async () => {
    // Four calls of 20k tokens if nothing stopped it; the second one's start already crosses 30k.
    const r = await send("qa-dev", "@usage 20000 0\n@bash echo 1\n@bash echo 2\n@bash echo 3\n@reply all three");
    expect(r.interaction).toMatchObject({
      status: "interrupted",
      error: expect.stringMatching(
        /^budget: member 'qa-dev' \(tokens\) had 30k tokens left; the turn had used about 40(\.\d+)?k tokens when it was interrupted$/,
      ),
    });
    const member = tokenBudget("qa-dev");
    expect(member.usedUp).toBe(true);
    expect(member.spentTokens).toBeGreaterThanOrEqual(40_000);
    expect(member.spentTokens).toBeLessThanOrEqual(30_000 + 20_000 + 100);
    // The dollar budget beside it is not used up; the token one holds the next turn all the same.
    expect(budgets().find((b) => b.target === "qa-dev" && b.unit === "usd")).toMatchObject({ usedUp: false });
    await send("qa-dev", "anything more?", false);
    const s = await waitForSession(sh.hub, "qa-dev", (x) => typeof x.problem === "string");
    expect([s.status, s.problem]).toEqual([
      "idle",
      expect.stringMatching(/^blocked: budget — member 'qa-dev' \(tokens\): 4\d(\.\d+)?k tokens spent of 30k tokens$/),
    ]);
  }, 120_000);

  it("is refused at 0, negative, fractional or beside a dollar amount, on the CLI, HTTP and MCP, writing nothing", async () => {
    const before = budgets();
    const zero = run("budget-set", "team", "--tokens", "0");
    expect([zero.code, zero.stderr]).toEqual([2, "teamhub: invalid_input: amountTokens: must be at least 1 token\n"]);
    expect(run("budget-set", "team", "--tokens=-5").stderr).toBe("teamhub: invalid_input: amountTokens: must be at least 1 token\n");
    expect(run("budget-set", "team", "--tokens", "1.5").stderr).toBe("teamhub: invalid_input: amountTokens: must be a whole number of tokens\n");
    expect(run("budget-set", "team", "--amount", "1", "--tokens", "1000").stderr).toBe(
      "teamhub: invalid_input: amountTokens: must be left out when amountUsd is given (a budget has one amount: set a token budget on its own)\n",
    );
    expect(run("budget-set", "team").stderr).toBe(
      "teamhub: invalid_input: amountUsd: is required, or amountTokens (a budget has one amount: US dollars or tokens)\n",
    );
    const http = await api(sh.hub, "PUT", "/api/budgets", { team: TEAM, scope: "team", amountTokens: -1 });
    expect([http.status, http.body.error.message]).toEqual([400, "amountTokens: must be at least 1 token"]);
    const operator = fs.readFileSync(`${sh.hub.dataDir}/operator-token`, "utf8").trim();
    const mcp = await httpClient(sh.hub.url, operator);
    try {
      const bad = await call(mcp, "budget_set", { team: TEAM, scope: "team", amountTokens: 0 });
      expect([bad.isError, bad.text]).toEqual([true, expect.stringContaining("amountTokens: must be at least 1 token")]);
      expect(budgets()).toEqual(before);
      const ok = await call(mcp, "budget_set", { team: TEAM, scope: "team", amountTokens: 1_000_000 });
      expect(ok.json()).toMatchObject({ scope: "team", unit: "tokens", amountTokens: 1_000_000, amountUsd: null });
    } finally {
      await mcp.close();
    }
  }, 60_000);
});
