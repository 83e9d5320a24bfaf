/**
 * The safety net with the real CLI: cost, turn and time limits end a delegate call with the right
 * status; protected paths are denied and recorded; approvals wait for a person and are denied at
 * their deadline.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { inputCostUsd } from "./helpers/claude.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel())));
afterAll(async () => sh?.close());

const delegate = async (body: Record<string, unknown>) => (await api(sh.hub, "POST", "/api/delegate", body)).body;

describe("delegate limits", () => {
  it("completes within its limits", async () => {
    const r = await delegate({ name: "d-ok", task: "@bash echo hello\n@reply said hello" });
    expect(r).toMatchObject({ status: "completed", response: "said hello", canContinue: true, toolsUsed: ["Bash"], turns: 2, error: null });
    expect(r.cost).toBeGreaterThan(0);
    const more = (await api(sh.hub, "POST", "/api/sessions/d-ok/continue", { message: "anything else?" })).body;
    expect(more).toMatchObject({ status: "needs_input", response: "pong: anything else?" });
    expect((await api(sh.hub, "POST", "/api/sessions/d-ok/finish", {})).body).toMatchObject({ status: "stopped", interactions: 2 });
  }, 120_000);

  it("cost_exceeded when the cost passes maxCost", async () => {
    // 400k input tokens at the default model's list price: $2 per call at $5/M, $1.60 at $4/M.
    const r = await delegate({ name: "d-cost", task: "@usage 400000 100\n@reply expensive", maxCost: 0.5 });
    const perCall = inputCostUsd(400_000).toFixed(1).replace(".", "\\.");
    expect(r).toMatchObject({
      status: "cost_exceeded",
      canContinue: false,
      error: expect.stringMatching(new RegExp(`^cost limit: \\$${perCall}\\d* spent of \\$0\\.50$`)),
    });
    expect(r.safety.violations.map((v: any) => [v.kind, v.detail])).toEqual([["cost", r.error]]);
    expect((await waitForSession(sh.hub, "d-cost", (s) => s.status === "stopped")).exitReason).toBe("limit:cost");
  }, 120_000);

  it("turns_exceeded when the model keeps going past maxTurns", async () => {
    const r = await delegate({ name: "d-turns", task: "@bash echo 1\n@bash echo 2\n@bash echo 3\n@reply three", maxTurns: 2 });
    expect(r).toMatchObject({ status: "turns_exceeded", canContinue: false, error: expect.stringMatching(/^turn limit: \d+ of 2 turns$/) });
    expect(r.safety.violations.map((v: any) => v.kind)).toEqual(["turns"]);
    expect((await waitForSession(sh.hub, "d-turns", (s) => s.status === "stopped")).exitReason).toBe("limit:turns");
  }, 120_000);

  it("failed when the API answers with an error", async () => {
    const r = await delegate({ name: "d-error", task: "@error 500" });
    expect(r).toMatchObject({ status: "failed", canContinue: false });
    expect(r.error).toMatch(/^API Error: 500 scripted failure/);
    expect(r.response).toBeNull();
  }, 120_000);

  it("timed_out when an interaction runs past its time limit", async () => {
    const started = Date.now();
    const r = await delegate({ name: "d-slow", task: "@sleep 30000\n@reply too late", timeout: 2000 });
    expect(r).toMatchObject({ status: "timed_out", canContinue: false, error: "time limit: no result within 0:02" });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(r.safety.violations.map((v: any) => v.kind)).toEqual(["timeout"]);
    expect((await waitForSession(sh.hub, "d-slow", (s) => s.status === "stopped")).exitReason).toBe("limit:timeout");
  }, 120_000);
});

describe("protected paths", () => {
  it("denies a shell write to .env and a Write into .git/, leaves the files alone and records violations", async () => {
    const work = fs.mkdtempSync(path.join(sh.work, "guarded-"));
    fs.writeFileSync(path.join(work, ".env"), "SECRET=1\n");
    fs.mkdirSync(path.join(work, ".git", "hooks"), { recursive: true });
    const r = await delegate({
      name: "guarded",
      workDir: work,
      preset: "full",
      task: `@bash echo SECRET=2 >> .env\n@write ${work}/.git/hooks/pre-commit|rm -rf /\n@reply tried`,
    });
    expect(r.status).toBe("completed");
    expect(fs.readFileSync(path.join(work, ".env"), "utf8")).toBe("SECRET=1\n");
    expect(fs.existsSync(path.join(work, ".git", "hooks", "pre-commit"))).toBe(false);
    const status = (await api(sh.hub, "GET", "/api/sessions/guarded")).body;
    expect(status.violations.map((v: any) => [v.kind, v.detail.split(":")[0]])).toEqual([
      ["protected_path", "Bash denied"],
      ["protected_path", "Write denied"],
    ]);
    const denials = (await api(sh.hub, "GET", "/api/sessions/guarded/history")).body.interactions[0].permissionDenials;
    expect(denials.map((d: any) => d.tool_name)).toEqual(["Bash", "Write"]);
  }, 120_000);
});

describe("approvals", () => {
  it("waits for a person: allow runs the command, deny shows in the transcript, silence is denied at the deadline", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "asker", approvalTimeoutMs: 2000 });
    await waitForSession(sh.hub, "asker", (s) => s.status === "idle");
    const target = path.join(sh.work, "approved.txt");

    const send = (message: string) => api(sh.hub, "POST", "/api/sessions/asker/send", { message, wait: true });
    const allowed = send(`@bash touch ${target}\n@reply touched`);
    const waiting = await waitForSession(sh.hub, "asker", (s) => s.status === "waiting_permission");
    expect(waiting.approvals).toEqual([
      expect.objectContaining({ toolName: "Bash", status: "pending", input: expect.objectContaining({ command: `touch ${target}` }) }),
    ]);
    const decided = await api(sh.hub, "POST", `/api/sessions/asker/approvals/${waiting.approvals[0].id}`, { decision: "allow" });
    expect(decided.body).toMatchObject({ status: "allowed", decidedBy: "operator" });
    expect((await allowed).body.interaction).toMatchObject({ status: "completed", response: "touched" });
    expect(fs.existsSync(target)).toBe(true);

    const denied = send("@bash rm -rf /tmp/nothing-here\n@reply done");
    const second = await waitForSession(sh.hub, "asker", (s) => s.status === "waiting_permission");
    await api(sh.hub, "POST", `/api/sessions/asker/approvals/${second.approvals[0].id}`, { decision: "deny", note: "not today" });
    expect((await denied).body.interaction.permissionDenials).toEqual([expect.objectContaining({ tool_name: "Bash" })]);
    const transcript = (await api(sh.hub, "GET", "/api/sessions/asker/transcript?limit=500")).body.entries;
    expect(JSON.stringify(transcript)).toContain("Denied by operator: not today");

    const started = Date.now();
    const silent = await send("@bash rm -rf /tmp/also-nothing\n@reply done");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    expect(silent.body.interaction.permissionDenials).toEqual([expect.objectContaining({ tool_name: "Bash" })]);
    const approvals = (await api(sh.hub, "GET", "/api/approvals?status=timed_out")).body;
    expect(approvals).toEqual([expect.objectContaining({ session: "asker", toolName: "Bash", status: "timed_out", decidedBy: "supervisor" })]);
    expect(JSON.stringify((await api(sh.hub, "GET", "/api/sessions/asker/transcript?limit=500")).body.entries)).toContain("nobody approved this in time");
  }, 120_000);

  it("a member token cannot decide approvals", async () => {
    const token = (await api(sh.hub, "POST", "/api/tokens", { name: "sneaky" })).body.token;
    const r = await api(sh.hub, "POST", "/api/sessions/asker/approvals/1", { decision: "allow" }, { authorization: `Bearer ${token}` });
    expect(r.status).toBe(403);
    expect(r.body.error.details).toMatchObject({ rule: "lead", operation: "approval.decide" });
  });
});
