/**
 * A Codex member through the hub: the real codex-acp, in the hub's sandbox, against the fake Responses API. Its turns,
 * transcript, tokens and cost, the hub's MCP tools under its own identity, and its shell commands judged by the same
 * policy and approvals as a Claude member's (docs/runtimes.md).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers/hub-process.ts";
import { waitForSession } from "./helpers/session-hub.ts";
import { startCodexHub, type CodexHub, CODEX_PRICE } from "./helpers/codex.ts";

let sh: CodexHub;
beforeAll(async () => (sh = await startCodexHub()));
afterAll(async () => sh?.close());

const send = (name: string, message: string) => api(sh.hub, "POST", `/api/sessions/${name}/send`, { message, wait: true });
const transcriptOf = async (name: string) => (await api(sh.hub, "GET", `/api/sessions/${name}/transcript?limit=500`)).body.entries;

describe("a Codex session", () => {
  it("answers a turn; its tokens come from codex's count and its cost from the runtime's prices", async () => {
    const spawned = await api(sh.hub, "POST", "/api/sessions", { name: "cx-text", runtime: "codex", prompt: "@usage 1200 300\n@reply hello from codex" });
    expect(spawned.status).toBe(201);
    const s = await waitForSession(sh.hub, "cx-text", (x) => x.status === "idle" && x.interactions === 1);
    expect(s).toMatchObject({ sandbox: "bubblewrap", lastOutput: "hello from codex", model: CODEX_PRICE.model });
    const [turn] = (await api(sh.hub, "GET", "/api/sessions/cx-text/history")).body.interactions;
    expect(turn).toMatchObject({ status: "completed", response: "hello from codex", inputTokens: 1200, outputTokens: 300, turns: 1, isError: false });
    expect(turn.costUsd).toBeCloseTo((1200 * CODEX_PRICE.inputUsdPerMTok + 300 * CODEX_PRICE.outputUsdPerMTok) / 1e6, 10);
    expect(s.costUsd).toBeCloseTo(turn.costUsd, 10);
    // The transcript speaks the dashboard's vocabulary: the conversation opened, the prompt, the model's text, the turn's result.
    const kinds = (await transcriptOf("cx-text")).map((e: any) => `${e.direction} ${e.type}`);
    expect(kinds).toEqual(["out system", "in user", "out assistant", "out result"]);

    const again = (await send("cx-text", "@reply second turn")).body;
    expect(again.interaction).toMatchObject({ status: "completed", response: "second turn" });
  }, 60_000);

  it("calls the hub's MCP tools as itself", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-mcp", runtime: "codex" });
    await waitForSession(sh.hub, "cx-mcp", (x) => x.status === "idle");
    const r = (await send("cx-mcp", "@mcp server_version {}")).body;
    expect(r.interaction.status).toBe("completed");
    expect(r.interaction.response).toContain('"you":"cx-mcp"');
    expect(r.interaction.toolsUsed).toEqual(["mcp__teamhub__server_version"]);
    expect(r.interaction.turns).toBe(2);
    const entries = await transcriptOf("cx-mcp");
    const call = entries.find((e: any) => e.type === "assistant" && e.payload.message.content[0].type === "tool_use");
    expect(call.payload.message.content[0]).toMatchObject({ name: "mcp__teamhub__server_version" });
    const result = entries.find((e: any) => e.type === "user" && e.direction === "out");
    expect(result.payload.message.content[0]).toMatchObject({ type: "tool_result", is_error: false });
  }, 60_000);

  it("asks a person before a shell command under the edit preset: allowed it runs, denied it does not", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-shell", runtime: "codex" });
    await waitForSession(sh.hub, "cx-shell", (x) => x.status === "idle");
    const allowed = send("cx-shell", "@shell touch allowed.txt\n@reply touched");
    const waiting = await waitForSession(sh.hub, "cx-shell", (x) => x.status === "waiting_permission");
    expect(waiting.approvals).toEqual([expect.objectContaining({ toolName: "Bash", status: "pending", input: { command: "touch allowed.txt" } })]);
    await api(sh.hub, "POST", `/api/sessions/cx-shell/approvals/${waiting.approvals[0].id}`, { decision: "allow" });
    expect((await allowed).body.interaction).toMatchObject({ status: "completed", response: "touched" });
    expect(fs.existsSync(path.join(sh.work, "allowed.txt"))).toBe(true);

    const denied = send("cx-shell", "@shell touch denied.txt\n@reply touched");
    const second = await waitForSession(sh.hub, "cx-shell", (x) => x.status === "waiting_permission");
    await api(sh.hub, "POST", `/api/sessions/cx-shell/approvals/${second.approvals[0].id}`, { decision: "deny", note: "not today" });
    const r = (await denied).body;
    expect(r.interaction.permissionDenials).toEqual([expect.objectContaining({ tool_name: "Bash", tool_input: { command: "touch denied.txt" } })]);
    expect(fs.existsSync(path.join(sh.work, "denied.txt"))).toBe(false);
    expect(JSON.stringify(await transcriptOf("cx-shell"))).toContain("Denied by operator: not today");
  }, 60_000);

  it("is interrupted at its time limit and stopped, the limit said in words", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-slow", runtime: "codex", safety: { timeoutMs: 1500 } });
    await waitForSession(sh.hub, "cx-slow", (x) => x.status === "idle");
    const r = (await send("cx-slow", "@sleep 30000\n@reply too late")).body;
    expect(r.interaction).toMatchObject({ status: "limit" });
    const s = await waitForSession(sh.hub, "cx-slow", (x) => x.status === "stopped");
    expect(s.exitReason).toBe("limit:timeout");
    expect(s.problem).toMatch(/time limit/);
  }, 60_000);

  it("fails a turn the API refused with the agent's own words for it, and says so", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-refused", runtime: "codex" });
    await waitForSession(sh.hub, "cx-refused", (x) => x.status === "idle");
    const r = (await send("cx-refused", "@fail 400 the model is not available to this organization")).body;
    expect(r.interaction).toMatchObject({ status: "error", isError: true, error: "the model is not available to this organization" });
    expect(r.session.problem).toBe("last turn failed: the model is not available to this organization");
    const result = (await transcriptOf("cx-refused")).at(-1);
    expect(result).toMatchObject({ type: "result", payload: { is_error: true, result: "the model is not available to this organization" } });
    // The session stays usable.
    expect((await send("cx-refused", "@reply fine again")).body.interaction).toMatchObject({ status: "completed", response: "fine again" });
  }, 60_000);

  it("is charged to a member's budget at the end of its turn; used up, the next turn waits until it is raised", async () => {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: "cxb", name: "cx-budget", runtime: "codex" })).status).toBe(201);
    await waitForSession(sh.hub, "cx-budget", (x) => x.status === "idle");
    const put = await api(sh.hub, "PUT", "/api/budgets", { team: "cxb", scope: "member", target: "cx-budget", amountTokens: 5000 });
    expect(put.status).toBe(200);
    expect((await send("cx-budget", "@usage 6000 100\n@reply big spend")).body.interaction.status).toBe("completed");
    const [budget] = (await api(sh.hub, "GET", "/api/budgets?team=cxb")).body.filter((b: any) => b.target === "cx-budget");
    expect(budget).toMatchObject({ usedUp: true, spentTokens: 6100 });

    await api(sh.hub, "POST", "/api/sessions/cx-budget/send", { message: "@reply after the raise" });
    const held = await waitForSession(sh.hub, "cx-budget", (x) => typeof x.problem === "string" && x.problem.startsWith("blocked: budget"));
    expect(held.status).toBe("idle");
    await api(sh.hub, "PUT", "/api/budgets", { team: "cxb", scope: "member", target: "cx-budget", amountTokens: 50_000 });
    const after = await waitForSession(sh.hub, "cx-budget", (x) => x.problem === null && x.interactions === 2 && x.status === "idle");
    expect(after.lastOutput).toBe("after the raise");
  }, 60_000);

  it("is woken by a message to it, and reads it in its next turn", async () => {
    expect((await api(sh.hub, "POST", "/api/team-spawn", { team: "cxm", name: "cx-woken", runtime: "codex" })).status).toBe(201);
    await waitForSession(sh.hub, "cx-woken", (x) => x.status === "idle");
    expect((await api(sh.hub, "POST", "/api/chat/send", { team: "cxm", to: "cx-woken", message: "the schema is ready" })).status).toBe(200);
    const woken = await waitForSession(sh.hub, "cx-woken", (x) => x.interactions === 1 && x.status === "idle");
    const [turn] = (await api(sh.hub, "GET", "/api/sessions/cx-woken/history")).body.interactions;
    expect(turn.prompt).toContain("the schema is ready");
    expect(woken.lastOutput).toContain("the schema is ready");
  }, 60_000);

  it("stops, and its process with it", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-stop", runtime: "codex" });
    const s = await waitForSession(sh.hub, "cx-stop", (x) => x.status === "idle");
    await api(sh.hub, "POST", "/api/sessions/cx-stop/stop", {});
    const stopped = await waitForSession(sh.hub, "cx-stop", (x) => x.status === "stopped");
    expect(stopped).toMatchObject({ pid: null, exitReason: "stopped" });
    expect(fs.existsSync(`/proc/${s.pid}`)).toBe(false);
  }, 60_000);
});
