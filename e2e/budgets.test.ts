/**
 * Budgets with the real CLI (docs/budgets.md): a team's allocation at a tenth of the $10 one in
 * docs/budgets.md — team $1, db-dev's contract $0.20, api-dev's $0.40, qa-dev's $0.20 — with the fake model's `@usage`
 * driving the cost the CLI reports. The sessions run claude-opus-4-5, priced at $5 per million input tokens by every
 * supported release (40,000 tokens cost $0.20 a call), since the default model and its price change between releases.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api, cli } from "./helpers/hub-process.ts";
import { call, httpClient } from "./helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
const TEAM = "auth";
const run = (...args: string[]) => cli(sh.hub.dataDir, [...args, "--team", TEAM]);
const send = async (name: string, message: string, wait = true) => (await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message, wait })).body;
const contract = async (id: string) => (await api(sh.hub, "GET", `/api/contracts/${id}?team=${TEAM}`)).body;
const budgets = () => JSON.parse(run("budget-list", "--json").stdout) as Array<{ scope: string; target: string | null; spentUsd: number; usedUp: boolean }>;
const history = async (name: string) =>
  (await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions as Array<{ n: number; prompt: string; status: string; costUsd: number }>;
const startAndSpend = (id: string, tokens: number, reply: string) =>
  `@mcp contract_start ${JSON.stringify({ team: TEAM, id })}\n@usage ${tokens} 0\n@reply ${reply}`;

beforeAll(async () => {
  sh = await startSessionHub(directiveModel(), {}, { model: "claude-opus-4-5" });
  for (const [id, assignee] of [
    ["schema", "db-dev"],
    ["api", "api-dev"],
    ["tests", "qa-dev"],
  ]) {
    expect((await api(sh.hub, "POST", "/api/contracts", { team: TEAM, id, title: id, assignee })).status).toBe(201);
  }
  expect(run("budget-set", "team", "--amount", "1").code).toBe(0);
  expect(run("budget-set", "contract", "schema", "--amount", "0.20").stdout).toBe("contract schema: $0.00 spent of $0.20 (lifetime), $0.20 left\n");
  expect((await api(sh.hub, "PUT", "/api/budgets", { team: TEAM, scope: "contract", target: "api", amountUsd: 0.4 })).status).toBe(200);
  expect(run("budget-set", "contract", "tests", "--amount", "0.20").code).toBe(0);
  // One spawn batch: a later one would need a phase gate (the team's gate enforcement).
  for (const name of ["db-dev", "api-dev", "qa-dev"]) {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name })).status).toBe(201);
    await waitForSession(sh.hub, name, (s) => s.status === "idle");
  }
}, 120_000);
afterAll(async () => sh?.close());

describe("a team, member and contract allocation, end to end", () => {
  it("db-dev's contract fails with `budget` when its work costs more than its budget; api-dev's goes on", async () => {
    const db = await send("db-dev", startAndSpend("schema", 40_000, "schema done"));
    expect(db.interaction.status).toBe("completed");
    expect(await contract("schema")).toMatchObject({ status: "failed", statusReason: "budget" });
    const api1 = await send("api-dev", startAndSpend("api", 20_000, "api half done"));
    expect(api1.interaction.status).toBe("completed");
    expect(await contract("api")).toMatchObject({ status: "in_progress" });
    const byTarget = Object.fromEntries(budgets().map((b) => [b.target ?? "team", b]));
    expect(byTarget.schema).toMatchObject({ usedUp: true });
    expect(byTarget.schema.spentUsd).toBeCloseTo(0.4, 2);
    expect(byTarget.api).toMatchObject({ usedUp: false });
    expect(byTarget.api.spentUsd).toBeCloseTo(0.2, 2);
    // qa-dev's contract is untouched by db-dev's overrun: its budget is whole and it is still there to be started.
    expect(byTarget.tests).toMatchObject({ usedUp: false, spentUsd: 0 });
    expect(await contract("tests")).toMatchObject({ status: "ready" });
    // The operator's inbox says so; the dashboard's needs-attention lists it.
    const feed = (await api(sh.hub, "GET", `/api/chat/messages?team=${TEAM}&member=operator`)).body.messages as Array<{ kind: string; text: string }>;
    expect(feed.filter((m) => m.kind === "system").map((m) => m.text)).toContainEqual(
      expect.stringMatching(/^Budget used up: contract 'schema' has \$0\.4\d* spent of \$0\.20 \(\d+%\); the contract fails/),
    );
    expect(
      (await api(sh.hub, "GET", `/api/overview?team=${TEAM}`)).body.attention.budgets.flatMap((g: { items: Array<{ target: string }> }) =>
        g.items.map((b) => b.target),
      ),
    ).toContain("schema");
  }, 180_000);

  it("when the team's total reaches its budget no turn starts anywhere until the operator raises it; then they run", async () => {
    // Wait out the notice turn db-dev got when its contract failed, so what follows is ours alone.
    await vi.waitFor(async () => expect((await history("db-dev")).every((i) => i.status !== "queued" && i.status !== "running")).toBe(true), {
      timeout: 60_000,
      interval: 200,
    });
    expect((await send("db-dev", "@usage 100000 0\n@reply big spend")).interaction.status).toBe("completed");
    expect(budgets().find((b) => b.scope === "team")).toMatchObject({ usedUp: true });

    await send("api-dev", "after the stop: api", false);
    await send("db-dev", "after the stop: db", false);
    for (const name of ["api-dev", "db-dev"]) {
      const s = await waitForSession(sh.hub, name, (x) => typeof x.problem === "string" && x.problem.startsWith("blocked: budget"));
      expect(s.problem).toMatch(/^blocked: budget — team 'auth': \$1\.\d+ spent of \$1\.00$/);
      expect(s.status).toBe("idle");
      expect((await history(name)).at(-1)).toMatchObject({ status: "queued" });
    }
    expect(run("list", "--json").stdout).toContain("blocked: budget");

    // A delegate (and its follow-up) held by the budget says so at once instead of waiting out its call; its task stays queued.
    const blocked = {
      status: "cost_exceeded",
      cost: 0,
      turns: 0,
      canContinue: false,
      error: expect.stringMatching(
        /^blocked: budget — team 'auth': \$1\.\d+ spent of \$1\.00; the task waits in the session's queue and starts when the budget is raised \(abort withdraws it\)$/,
      ),
    };
    expect((await api(sh.hub, "POST", "/api/delegate", { team: TEAM, name: "d-held", task: "held task" })).body).toMatchObject({
      ...blocked,
      name: "d-held",
      response: null,
    });
    expect((await api(sh.hub, "POST", "/api/sessions/d-held/continue", { message: "and then this" })).body).toMatchObject(blocked);
    expect((await history("d-held")).map((i) => i.status)).toEqual(["queued", "queued"]);

    expect(run("budget-set", "team", "--amount", "5").code).toBe(0);
    expect((await waitForSession(sh.hub, "d-held", (x) => x.interactions === 2 && x.queued === 0 && x.status === "idle", 60_000)).lastOutput).toBe(
      "pong: and then this",
    );
    for (const [name, text] of [
      ["api-dev", "api"],
      ["db-dev", "db"],
    ]) {
      const s = await waitForSession(sh.hub, name, (x) => x.problem === null && x.status === "idle" && x.interactions >= 2, 60_000);
      expect(s.lastOutput).toBe(`pong: after the stop: ${text}`);
    }
  }, 240_000);
});

describe("a turn in flight", () => {
  it("is interrupted when its streamed usage crosses the member's budget: overshot by at most the call that crossed it", async () => {
    expect(run("budget-set", "member", "qa-dev", "--amount", "0.30").code).toBe(0);
    // Four calls of $0.20 if nothing stopped it; the second one's start already crosses $0.30.
    const r = await send("qa-dev", "@usage 40000 0\n@bash echo 1\n@bash echo 2\n@bash echo 3\n@reply all three");
    expect(r.interaction).toMatchObject({
      status: "interrupted",
      error: expect.stringMatching(/^budget: member 'qa-dev' had \$0\.30 left; the turn had spent about \$0\.40 when it was interrupted$/),
    });
    const member = budgets().find((b) => b.target === "qa-dev")!;
    expect(member.usedUp).toBe(true);
    expect(member.spentUsd - 0.3).toBeGreaterThan(0);
    expect(member.spentUsd - 0.3).toBeLessThanOrEqual(0.2 + 1e-9);
    // The process is still there, and its next turn waits for the budget.
    await send("qa-dev", "anything more?", false);
    const s = await waitForSession(sh.hub, "qa-dev", (x) => typeof x.problem === "string");
    expect([s.status, s.problem]).toEqual(["idle", expect.stringMatching(/^blocked: budget — member 'qa-dev': \$0\.4\d* spent of \$0\.30$/)]);
  }, 120_000);
});

describe("doors", () => {
  it("refuses bad input and a member raising its own budget, on the CLI, HTTP and MCP, writing nothing", async () => {
    const before = budgets();
    const negative = run("budget-set", "member", "db-dev", "--amount=-1");
    expect([negative.code, negative.stderr]).toEqual([2, "teamhub: invalid_input: amountUsd: must not be negative\n"]);
    expect(run("budget-set", "member", "db-dev", "--amount", "lots").stderr).toBe("teamhub: invalid_input: amountUsd: must be a number (US dollars)\n");
    expect(run("budget-set", "galaxy", "--amount", "1").stderr).toBe("teamhub: invalid_input: scope: must be one of team, member, contract\n");
    const http = await api(sh.hub, "PUT", "/api/budgets", { team: TEAM, scope: "member", amountUsd: 1 });
    expect([http.status, http.body.error.message]).toEqual([400, "target: is required for a member budget (the member's name)"]);

    const token = cli(sh.hub.dataDir, ["token", "create", "db-dev"]).stdout.trim();
    const mcp = await httpClient(sh.hub.url, token);
    try {
      const raise = await call(mcp, "budget_set", { team: TEAM, scope: "member", target: "db-dev", amountUsd: 100 });
      expect(raise.isError).toBe(true);
      expect(raise.text).toContain("'db-dev' (member) may not set team or member budgets: only the operator may");
      const mine = (await call(mcp, "budget_get", { team: TEAM })).json() as Array<{ scope: string; target: string | null }>;
      expect(mine.map((b) => `${b.scope}:${b.target}`)).toEqual(["team:null", "contract:schema"]);
    } finally {
      await mcp.close();
    }
    expect(budgets()).toEqual(before);
  }, 60_000);
});
