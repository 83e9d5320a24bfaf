/**
 * A session's state tells the truth, with the real CLI: time spent waiting for a person's decision
 * does not count against the per-turn limit; a turn the API failed is recorded as failed with the
 * API's message until a later turn succeeds; a limit stop says which limit and by how much; and
 * each of them reaches needs-attention, the CLI and the MCP tools.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { inputCostUsd } from "./helpers/claude.ts";
import { api, cliAsync } from "./helpers/hub-process.ts";
import { call, stdioClient } from "./helpers/mcp-client.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

// While `outage` is set every API call fails the way a broken upstream does.
let outage = false;
const model = directiveModel();
let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub((req) => (outage ? { error: 500, message: "upstream is down", retry: false } : model(req)))));
afterAll(async () => sh?.close());

const events = async (type: string, name: string) =>
  (await api(sh.hub, "GET", `/api/events?type=${type}&limit=500`)).body.events.filter((e: any) => e.payload.name === name);
// Needs-attention groups sessions by the kind of problem; these tests follow the sessions themselves.
const problems = async () => (await api(sh.hub, "GET", "/api/overview?team=default")).body.attention.sessionProblems.flatMap((g: any) => g.items);

describe("a long approval under a shorter turn limit", () => {
  it("waits for the person past the turn limit, then the turn finishes", async () => {
    const target = path.join(sh.work, "approved-late.txt");
    // A first turn while the CLI starts up, so that the next one reaches its request well within the 12 s limit:
    // with 6 s, a CI run on a loaded 2-core machine (load average 15) once took longer and cut the turn.
    await api(sh.hub, "POST", "/api/sessions", { name: "patient", safety: { timeoutMs: 12_000 }, approvalTimeoutMs: 3_600_000, prompt: "warm up" });
    await waitForSession(sh.hub, "patient", (s) => s.status === "idle" && s.interactions === 1);
    const turn = api(sh.hub, "POST", "/api/sessions/patient/send", { message: `@bash touch ${target}\n@reply touched`, wait: true });
    const waiting = await waitForSession(sh.hub, "patient", (s) => s.status === "waiting_permission");
    const [approval] = waiting.approvals;
    // The card's deadline is the approval's own: an hour, not what is left of the turn's 12 s.
    expect(new Date(approval.expiresAt).getTime() - new Date(approval.createdAt).getTime()).toBe(3_600_000);

    // A witness with the same 12 s limit, started after the request, is cut by it: when its violation
    // is recorded, more than 12 s of the patient's turn have passed.
    await api(sh.hub, "POST", "/api/sessions", { name: "witness", safety: { timeoutMs: 12_000 }, prompt: "@hang" });
    const witness = await waitForSession(sh.hub, "witness", (s) => s.status === "stopped", 60_000);
    expect(witness).toMatchObject({ exitReason: "limit:timeout", problem: "time limit: no result within 0:12" });
    expect(await events("session.violation", "patient")).toEqual([]);
    expect((await api(sh.hub, "GET", "/api/sessions/patient")).body).toMatchObject({ status: "waiting_permission", pendingApprovals: 1 });

    expect((await api(sh.hub, "POST", `/api/sessions/patient/approvals/${approval.id}`, { decision: "allow" })).body.status).toBe("allowed");
    expect((await turn).body.interaction).toMatchObject({ status: "completed", response: "touched", error: null });
    expect(fs.existsSync(target)).toBe(true);
    expect((await api(sh.hub, "GET", "/api/sessions/patient")).body).toMatchObject({ status: "idle", problem: null, violations: [] });
  }, 120_000);
});

describe("an API error", () => {
  it("fails the turn with the API's message and flags the live session until a later turn succeeds", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "unlucky" });
    await waitForSession(sh.hub, "unlucky", (s) => s.status === "idle");
    outage = true;
    const failed = (await api(sh.hub, "POST", "/api/sessions/unlucky/send", { message: "hello?", wait: true })).body;
    outage = false;
    expect(failed.interaction).toMatchObject({
      status: "error",
      isError: true,
      error: expect.stringMatching(/^API Error: 500 upstream is down/),
      response: null,
    });
    const s = (await api(sh.hub, "GET", "/api/sessions/unlucky")).body;
    expect(s).toMatchObject({ status: "idle", lastError: failed.interaction.error, problem: `last turn failed: ${failed.interaction.error}` });
    expect(await problems()).toEqual(expect.arrayContaining([expect.objectContaining({ name: "unlucky", status: "idle", problem: s.problem })]));
    expect((await events("session.problem", "unlucky")).map((e: any) => e.payload.problem)).toEqual([s.problem]);

    const status = await cliAsync(sh.hub.dataDir, ["status", "unlucky"]);
    expect(status.stdout).toMatch(/^unlucky: idle \(.*\), \$0\.0000, \d+ turns — last turn failed: API Error: 500 upstream is down/);
    expect((await cliAsync(sh.hub.dataDir, ["history", "unlucky"])).stdout).toMatch(/\n1\s+error\s.*hello\?\s+API Error: 500 upstream is down/);

    const later = (await api(sh.hub, "POST", "/api/sessions/unlucky/send", { message: "and now?", wait: true })).body;
    expect(later.interaction).toMatchObject({ status: "completed", error: null });
    expect((await api(sh.hub, "GET", "/api/sessions/unlucky")).body).toMatchObject({ status: "idle", lastError: null, problem: null });
    expect((await problems()).map((x: any) => x.name)).not.toContain("unlucky");
    expect((await events("session.problem", "unlucky")).map((e: any) => e.payload.problem)).toEqual([null, s.problem]);
  }, 120_000);
});

describe("a cost-limit stop", () => {
  it("says which limit and by how much on the session, its violation, the overview, the CLI and MCP", async () => {
    // 80k input tokens at the default model's list price ($0.40 in one call at $5/M, $0.32 at $4/M), against a $0.05 limit.
    await api(sh.hub, "POST", "/api/sessions", { name: "spender", safety: { maxCostUsd: 0.05 }, prompt: "@usage 80000 0\n@reply spent" });
    const s = await waitForSession(sh.hub, "spender", (x) => x.status === "stopped", 60_000);
    const spent = inputCostUsd(80_000).toFixed(2);
    const reason = `cost limit: $${spent} spent of $0.05`;
    expect(s).toMatchObject({ exitReason: "limit:cost", problem: reason, violations: [expect.objectContaining({ kind: "cost", detail: reason })] });
    const [turn] = (await api(sh.hub, "GET", "/api/sessions/spender/history")).body.interactions;
    expect(turn).toMatchObject({ status: "limit", error: reason, response: "spent" });
    expect(await problems()).toEqual(expect.arrayContaining([expect.objectContaining({ name: "spender", status: "stopped", problem: reason })]));

    const money = (text: string) => text.replace(/[$.]/g, "\\$&");
    expect((await cliAsync(sh.hub.dataDir, ["status", "spender"])).stdout).toMatch(
      new RegExp(`^spender: stopped \\(.*\\), ${money(`$${spent.slice(0, 3)}`)}\\d{3}, \\d+ turns — ${money(reason)}\\n`),
    );
    expect((await cliAsync(sh.hub.dataDir, ["list"])).stdout).toMatch(new RegExp(`spender\\s+default\\s+stopped\\s.*\\s${money(reason)}\\n`));
    const mcp = await stdioClient(sh.hub.dataDir);
    try {
      expect((await call(mcp, "get_session_status", { name: "spender" })).json()).toMatchObject({ status: "stopped", problem: reason });
      expect((await call(mcp, "list_sessions", { team: "default" })).json()).toEqual(
        expect.arrayContaining([expect.objectContaining({ name: "spender", problem: reason })]),
      );
    } finally {
      await mcp.close();
    }

    // Resumed, it no longer needs anyone: the reason and the needs-attention row go.
    await api(sh.hub, "POST", "/api/sessions/spender/resume", {});
    expect((await api(sh.hub, "GET", "/api/sessions/spender")).body.problem).toBeNull();
    expect((await problems()).map((x: any) => x.name)).not.toContain("spender");
  }, 120_000);
});
