import { isEvent } from "../../../lib/api/events.ts";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "../../db/sql.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { createToken, authenticate } from "../auth/tokens.service.ts";
import { listRoster } from "../roster/roster.service.ts";
import { updateTeamSettings } from "../teams/settings.ts";
import { OPERATOR } from "../principal.ts";
import { cleanupSessions, deleteSession, sendMessage } from "./control.service.ts";
import { lastOutput, listSessions, sessionHistory, transcript } from "./queries.service.ts";
import { appendTranscript, detectStalls, recordExit } from "./runtime.ts";
import { recoverSessions } from "./recovery.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
});
afterEach(() => hub.close());

const types = () => hub.events.map((e) => e.type);

describe("spawn", () => {
  it("records the session as starting with its first message queued, and announces it", async () => {
    const s = await k.spawn({ name: "one", prompt: "hello", model: "sonnet", preset: "review", allowedTools: ["Bash(npm test:*)"], safety: { maxCostUsd: 1 } });
    expect(s).toMatchObject({
      name: "one",
      team: "default",
      kind: "session",
      status: "starting",
      model: "sonnet",
      preset: "review",
      workDir: k.workDir,
      queued: 1,
      principal: "one",
    });
    expect(s.claudeSessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.allowedTools).toEqual(["Bash(npm test:*)"]);
    expect(s.safety).toEqual({ enabled: true, maxCostUsd: 1, maxTurns: 50, timeoutMs: 300000, protectedPaths: [], approvalTimeoutMs: 300000 });
    expect(types()).toEqual(["team.created", "session.created", "session.message_queued"]);
  });

  it("refuses a taken name, a reserved name and a missing or non-directory work dir without writing", async () => {
    await k.spawn({ name: "taken" });
    expect((await refusedWithoutWriting(hub, () => k.spawn({ name: "taken" }))).message).toBe("name: session 'taken' already exists");
    expect((await refusedWithoutWriting(hub, () => k.spawn({ name: "operator" }))).message).toContain("reserved");
    const missing = await refusedWithoutWriting(hub, () => k.spawn({ name: "x", workDir: "/no/such/dir" }));
    expect(issues(missing)[0]).toMatchObject({ field: "workDir", rule: "exists" });
    const notADirectory = path.join(hub.dir, "a-file");
    fs.writeFileSync(notADirectory, "");
    const file = await refusedWithoutWriting(hub, () => k.spawn({ name: "x", workDir: notADirectory }));
    expect(issues(file)[0]).toMatchObject({ field: "workDir", rule: "directory" });
    const relative = await refusedWithoutWriting(hub, () => k.spawn({ name: "x", workDir: "relative/dir" }));
    expect(issues(relative)[0]).toMatchObject({ field: "workDir", message: "must be an absolute path" });
    const preset = await refusedWithoutWriting(hub, () => k.spawn({ name: "x", preset: "yolo" }));
    expect(issues(preset)[0].field).toBe("preset");
  });

  it("batch is all or nothing and names the bad entry", async () => {
    await k.spawn({ name: "exists" });
    const e = await refusedWithoutWriting(hub, () => k.batch([{ name: "fresh" }, { name: "exists" }]));
    expect(e.message).toBe("sessions.1: name: session 'exists' already exists");
    const dup = await refusedWithoutWriting(hub, () => k.batch([{ name: "a" }, { name: "a" }]));
    expect(issues(dup)[0]).toMatchObject({ field: "sessions.1.name", rule: "unique" });
    expect((await k.batch([{ name: "a" }, { name: "b", prompt: "go" }])).map((s) => [s.name, s.queued])).toEqual([
      ["a", 0],
      ["b", 1],
    ]);
  });

  it("fork needs a finished turn and copies the parent's settings", async () => {
    await k.spawn({ name: "parent", preset: "full", model: "haiku" });
    expect((await refusedWithoutWriting(hub, () => k.fork({ name: "parent", newName: "kid" }))).code).toBe("precondition_failed");
    await k.launched("parent");
    await k.send({ name: "parent", message: "hi" });
    const turn = (await k.startTurn("parent"))!;
    await k.finish("parent", { interactionId: turn.id });
    const kid = await k.fork({ name: "parent", newName: "kid", prompt: "branch" });
    expect(kid).toMatchObject({ name: "kid", parent: "parent", preset: "full", model: "haiku", status: "starting", queued: 1 });
    expect(hub.events.filter(isEvent("session.created")).find((e) => e.payload.name === "kid")!.payload.forkFrom).toBe(
      (await k.status("parent")).claudeSessionId,
    );
  });
});

describe("team_spawn", () => {
  it("joins the roster with the worker guide and counts spawn batches for the phase gate", async () => {
    await k.spawn({ name: "someone-else", team: "t" });
    const s = await k.teamSpawn({ team: "t", name: "api-dev", role: "backend", prompt: "start" });
    expect(s).toMatchObject({ kind: "member", team: "t", batch: 1 });
    expect(s.systemPrompt).toContain("You are **api-dev** (backend)");
    expect(s.systemPrompt).toContain('Pass team: "t" to every tool');
    expect((await listRoster(hub, { team: "t" })).map((m) => [m.name, m.role, m.sessionId])).toEqual([["api-dev", "backend", "api-dev"]]);
    const second = await k.teamSpawn({ team: "t", name: "qa-dev" });
    expect(second.batch).toBe(1);
    expect(second.systemPrompt).toContain("- api-dev (backend): idle");
  });

  it("skips the gate when the team turned enforcement off", async () => {
    await updateTeamSettings(hub, OPERATOR, { team: "free", gateEnforcement: "off" });
    expect((await k.teamSpawn({ team: "free", name: "w" })).batch).toBe(0);
  });
});

describe("operations and the state machine", () => {
  it("runs queued turns one at a time and only when idle; pause holds them; resume continues", async () => {
    await k.spawn({ name: "s", prompt: "first" });
    expect(await k.startTurn("s")).toBeNull(); // still starting
    await k.launched("s");
    const first = (await k.startTurn("s"))!;
    expect(first.prompt).toBe("first");
    await k.send({ name: "s", message: "second" });
    expect(await k.startTurn("s")).toBeNull(); // busy
    await k.finish("s", { interactionId: first.id, response: "one", costDelta: 0.02, turns: 2 });
    expect(await k.pause("s")).toMatchObject({ status: "paused", queued: 1 });
    expect(await k.startTurn("s")).toBeNull();
    expect((await refusal(k.pause("s"))).code).toBe("illegal_transition");
    expect((await k.resume("s")).status).toBe("idle");
    const second = (await k.startTurn("s"))!;
    expect(second.prompt).toBe("second");
    await k.finish("s", { interactionId: second.id, response: "two" });
    expect(await k.status("s")).toMatchObject({ status: "idle", interactions: 2, turns: 3, costUsd: 0.03, lastOutput: "two" });
    expect((await lastOutput(hub, OPERATOR, { name: "s" })).output).toBe("two");
    expect((await sessionHistory(hub, OPERATOR, { name: "s", limit: 10 })).interactions.map((i) => [i.n, i.status, i.costUsd])).toEqual([
      [1, "completed", 0.02],
      [2, "completed", 0.01],
    ]);
  });

  it("pausing during a turn keeps the turn and stays paused after it", async () => {
    await k.spawn({ name: "s", prompt: "long" });
    await k.launched("s");
    const t = (await k.startTurn("s"))!;
    await k.pause("s");
    await k.finish("s", { interactionId: t.id });
    expect((await k.status("s")).status).toBe("paused");
  });

  it("stop and kill are requests the supervisor carries out; ended sessions refuse them", async () => {
    await k.spawn({ name: "s" });
    await k.stop("s");
    expect(types()).toContain("session.stop_requested");
    await k.exit("s", "stopped");
    expect((await refusal(k.stop("s"))).message).toContain("session 's' is stopped; stop needs it to be running");
    expect((await refusal(k.kill("s"))).code).toBe("illegal_transition");
    expect((await refusal(k.pause("s"))).code).toBe("illegal_transition");
  });

  it("a message to an ended session asks for a resume and queues the message", async () => {
    await k.spawn({ name: "s" });
    await k.launched("s");
    await k.exit("s", "killed");
    const r = await k.send({ name: "s", message: "wake up" });
    expect(r).toMatchObject({ completed: false, session: { status: "starting", queued: 1 }, interaction: { status: "queued", prompt: "wake up" } });
    expect(types().slice(-3)).toEqual(["session.status_changed", "session.resume_requested", "session.message_queued"]);
    expect((await refusal(k.resume("s"))).code).toBe("illegal_transition");
  });

  it("send with wait returns the finished interaction", async () => {
    const stop = k.supervise("w", (prompt) => ({ response: `echo ${prompt}` }));
    await k.spawn({ name: "w" });
    const r = await k.send({ name: "w", message: "ping", wait: true, waitTimeoutMs: 5000 });
    await stop();
    expect(r).toMatchObject({ completed: true, interaction: { status: "completed", response: "echo ping" } });
  });

  it("send with wait gives up at its timeout and says the turn is not finished", async () => {
    await k.spawn({ name: "slow" });
    const r = await k.send({ name: "slow", message: "ping", wait: true, waitTimeoutMs: 200 });
    expect(r).toMatchObject({ completed: false, interaction: { status: "queued" } });
  });

  it("send with wait stops waiting when the caller goes away", async () => {
    await k.spawn({ name: "left" });
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 50);
    const started = Date.now();
    const r = await sendMessage(hub, OPERATOR, { name: "left", message: "ping", wait: true, waitTimeoutMs: 60_000 }, 0, caller.signal);
    expect(r.completed).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("an exit abandons the running turn and cancels pending approvals", async () => {
    await k.spawn({ name: "s", prompt: "x" });
    await k.launched("s");
    await k.startTurn("s");
    await k.exit("s", "failed");
    const s = await k.status("s");
    expect(s).toMatchObject({ status: "failed", pid: null, running: null });
    expect((await sessionHistory(hub, OPERATOR, { name: "s", limit: 5 })).interactions[0].status).toBe("error");
  });
});

describe("limits", () => {
  it("reports the limit reached after a turn and records a violation", async () => {
    await k.spawn({ name: "s", safety: { maxCostUsd: 0.05, maxTurns: 3 } });
    await k.launched("s");
    const turns = async (r: Record<string, unknown>) => {
      await k.send({ name: "s", message: "go" });
      const t = (await k.startTurn("s"))!;
      return k.finish("s", { interactionId: t.id, ...r });
    };
    expect(await turns({ costDelta: 0.01, turns: 1 })).toEqual({ limit: null, problem: null });
    expect(await turns({ costDelta: 0.01, turns: 2 })).toEqual({ limit: "turns", problem: "turn limit: 3 of 3 turns" });
    expect(await turns({ costDelta: 0.04, turns: 0 })).toEqual({ limit: "cost", problem: "cost limit: $0.06 spent of $0.05" });
    expect(await turns({ subtype: "error_max_budget_usd", status: "error", isError: true, costDelta: 0, turns: 0 })).toEqual({
      limit: "cost",
      problem: "cost limit: $0.06 spent of $0.05",
    });
    const s = await k.status("s");
    expect(s.violations.map((v) => [v.kind, v.detail])).toEqual([
      ["turns", "turn limit: 3 of 3 turns"],
      ["cost", "cost limit: $0.06 spent of $0.05"],
      ["cost", "cost limit: $0.06 spent of $0.05"],
    ]);
    expect(s.problem).toBe("cost limit: $0.06 spent of $0.05");
    // Only the turn the CLI cut short is a `limit` turn; the others completed and the limit followed.
    const history = (await sessionHistory(hub, OPERATOR, { name: "s", limit: 10 })).interactions;
    expect(history.map((i) => [i.status, i.error])).toEqual([
      ["completed", null],
      ["completed", null],
      ["completed", null],
      ["limit", "cost limit: $0.06 spent of $0.05"],
    ]);
  });

  it("a limit that ends the process is its problem; the time limit counts the turn's own time", async () => {
    await k.spawn({ name: "slow", safety: { timeoutMs: 300_000 } });
    await k.launched("slow");
    await k.send({ name: "slow", message: "go" });
    const t = (await k.startTurn("slow"))!;
    expect(await k.finish("slow", { interactionId: t.id, status: "interrupted", isError: true, subtype: "error_during_execution", limit: "timeout" })).toEqual({
      limit: "timeout",
      problem: "time limit: no result within 5:00",
    });
    await recordExit(hub, await k.pk("slow"), {
      status: "stopped",
      reason: "limit:timeout",
      code: 0,
      signal: null,
      error: null,
      stderrTail: "",
      problem: "time limit: no result within 5:00",
    });
    expect(await k.status("slow")).toMatchObject({
      status: "stopped",
      exitReason: "limit:timeout",
      problem: "time limit: no result within 5:00",
      lastError: null,
    });
    const exited = hub.events.find((e) => e.type === "session.exited")!;
    expect(exited.payload).toMatchObject({ status: "stopped", reason: "limit:timeout", problem: "time limit: no result within 5:00" });
  });

  it("a disabled safety net reports no limits", async () => {
    await k.spawn({ name: "free", safety: { enabled: false, maxCostUsd: 0.01 } });
    await k.launched("free");
    await k.send({ name: "free", message: "go" });
    const t = (await k.startTurn("free"))!;
    expect(await k.finish("free", { interactionId: t.id, costDelta: 5 })).toEqual({ limit: null, problem: null });
  });
});

describe("problems", () => {
  const turn = async (name: string, r: Record<string, unknown> = {}) => {
    await k.send({ name, message: "go" });
    const t = (await k.startTurn(name))!;
    await k.finish(name, { interactionId: t.id, ...r });
    return t.id;
  };
  const failure = { status: "error", isError: true, response: null, error: "API Error: 500 boom", costDelta: 0 } as const;
  const problems = (name: string) =>
    hub.events
      .filter(isEvent("session.problem"))
      .filter((e) => e.payload.name === name)
      .map((e) => e.payload.problem);

  it("a failed turn keeps the live session idle with the API's message until a later turn succeeds", async () => {
    await k.spawn({ name: "s" });
    await k.launched("s");
    const failed = await turn("s", failure);
    expect(await k.status("s")).toMatchObject({ status: "idle", lastError: "API Error: 500 boom", problem: "last turn failed: API Error: 500 boom" });
    expect(hub.events.find((e) => e.type === "session.turn_completed")!.payload).toMatchObject({
      interactionId: failed,
      status: "error",
      error: "API Error: 500 boom",
    });
    // An interrupted turn proves nothing either way.
    await turn("s", { status: "interrupted", isError: true, subtype: "error_during_execution" });
    expect((await k.status("s")).problem).toBe("last turn failed: API Error: 500 boom");
    await turn("s");
    expect(await k.status("s")).toMatchObject({ status: "idle", lastError: null, problem: null });
    const history = (await sessionHistory(hub, OPERATOR, { name: "s", limit: 10 })).interactions;
    expect(history.map((i) => [i.status, i.error, i.response])).toEqual([
      ["error", "API Error: 500 boom", null],
      ["interrupted", null, "ok"],
      ["completed", null, "ok"],
    ]);
    expect(problems("s")).toEqual(["last turn failed: API Error: 500 boom", null]);
  });

  it("a failed exit says how it failed; a person's stop keeps a failed turn's problem; resume resolves it", async () => {
    await k.spawn({ name: "s" });
    await k.launched("s");
    await turn("s", failure);
    await k.exit("s", "stopped");
    expect(await k.status("s")).toMatchObject({ status: "stopped", problem: "last turn failed: API Error: 500 boom", lastError: "API Error: 500 boom" });
    await k.resume("s");
    expect(await k.status("s")).toMatchObject({ status: "starting", problem: null, lastError: null });

    await k.launched("s");
    await recordExit(hub, await k.pk("s"), {
      status: "failed",
      reason: "crashed",
      code: 1,
      signal: null,
      error: null,
      stderrTail: "boom\nError: out of memory\n",
    });
    expect(await k.status("s")).toMatchObject({ status: "failed", lastError: "boom\nError: out of memory", problem: "crashed (exited with code 1)" });
    await k.resume("s");
    await recordExit(hub, await k.pk("s"), {
      status: "failed",
      reason: "spawn_failed",
      code: null,
      signal: null,
      error: "spawn /bin/claude ENOENT",
      stderrTail: "",
    });
    expect(await k.status("s")).toMatchObject({ status: "failed", lastError: "spawn /bin/claude ENOENT", problem: "spawn_failed: spawn /bin/claude ENOENT" });
    expect(problems("s")).toEqual([
      "last turn failed: API Error: 500 boom",
      null,
      "crashed (exited with code 1)",
      null,
      "spawn_failed: spawn /bin/claude ENOENT",
    ]);
  });
});

describe("delegate", () => {
  it("completes, asks for input, continues", async () => {
    const stop = k.supervise("d", (p) => ({ response: p.includes("question") ? "Which file should I change?" : "done" }));
    const r = await k.delegate({ name: "d", task: "do it", context: "background" });
    expect(r).toMatchObject({ status: "completed", response: "done", name: "d", canContinue: true, cost: 0.01, turns: 1, error: null });
    expect((await sessionHistory(hub, OPERATOR, { name: "d", limit: 5 })).interactions[0].prompt).toBe("background\n\ndo it");
    expect(await k.continue({ name: "d", message: "a question" })).toMatchObject({ status: "needs_input", response: "Which file should I change?" });
    await stop();
  });

  it("maps limits and failures to their statuses", async () => {
    const stop = k.supervise("c", () => ({ subtype: "error_max_budget_usd", isError: true, status: "error" }));
    expect(await k.delegate({ name: "c", task: "spend", maxCost: 0.5 })).toMatchObject({
      status: "cost_exceeded",
      canContinue: false,
      safety: { limits: { maxCostUsd: 0.5 } },
    });
    await stop();
    const stop2 = k.supervise("t", () => ({ limit: "timeout" }));
    expect(await k.delegate({ name: "t", task: "slow", timeout: 1000 })).toMatchObject({ status: "timed_out", error: "time limit: no result within 0:01" });
    await stop2();
    const stop3 = k.supervise("f", () => ({ isError: true, status: "error", response: null, error: "API Error: 500 boom" }));
    expect(await k.delegate({ name: "f", task: "fail" })).toMatchObject({ status: "failed", response: null, error: "API Error: 500 boom" });
    await stop3();
  });

  it("refuses a name in use", async () => {
    await k.spawn({ name: "busy" });
    expect((await refusal(k.delegate({ name: "busy", task: "x" }))).code).toBe("conflict");
  });
});

describe("delete, cleanup, recovery, stalls", () => {
  it("delete removes the session's rows, retires its token and takes it off the roster", async () => {
    await k.teamSpawn({ team: "t", name: "gone", prompt: "hi" });
    const pk = await k.pk("gone");
    await appendTranscript(hub, pk, { interactionId: null, direction: "out", type: "system", subtype: "init", payload: { x: 1 } });
    const { issueSessionToken } = await import("../auth/tokens.service.ts");
    const token = await issueSessionToken(hub, { name: "gone", kind: "member" });
    expect(await authenticate(hub, token)).toEqual({ name: "gone", kind: "member", sessionId: "gone" });
    expect(await deleteSession(hub, OPERATOR, { name: "gone" })).toEqual({ deleted: "gone" });
    expect((await refusal(authenticate(hub, token))).code).toBe("unauthorized");
    expect((await listRoster(hub, { team: "t" }))[0]).toMatchObject({ name: "gone", status: "offline", sessionId: null });
    expect(await hub.db.read((s) => s.all(sql`SELECT * FROM "TranscriptEntry"`))).toEqual([]);
    expect(hub.events.at(-1)).toMatchObject({ type: "session.deleted", payload: { name: "gone", pk, wasLive: true, interactions: 1, transcriptEntries: 1 } });
  });

  it("cleanup deletes only sessions that ended long enough ago", async () => {
    await k.spawn({ name: "old" });
    await k.exit("old");
    await k.spawn({ name: "running" });
    expect(await cleanupSessions(hub, OPERATOR, { days: 1 })).toEqual({ deleted: [] });
    expect(await cleanupSessions(hub, OPERATOR, { days: 0 })).toEqual({ deleted: ["old"] });
    expect((await listSessions(hub, OPERATOR, { limit: 10 })).map((s) => s.name)).toEqual(["running"]);
  });

  it("recovery interrupts sessions that had a process and returns unlaunched ones to launch", async () => {
    await k.spawn({ name: "was-busy", prompt: "x" });
    await k.launched("was-busy");
    await k.startTurn("was-busy");
    await k.spawn({ name: "never-launched" });
    await k.spawn({ name: "done" });
    await k.exit("done");
    const r = await recoverSessions(hub);
    expect(r.interrupted.map((s) => [s.name, s.previousPid])).toEqual([["was-busy", 4242]]);
    expect(r.toLaunch.map((s) => s.name)).toEqual(["never-launched"]);
    expect(await k.status("was-busy")).toMatchObject({ status: "interrupted", exitReason: "hub_restart", pid: null, running: null });
    expect((await sessionHistory(hub, OPERATOR, { name: "was-busy", limit: 5 })).interactions[0].status).toBe("interrupted");
  });

  it("flags busy sessions silent past the threshold, once", async () => {
    await k.spawn({ name: "quiet", prompt: "x" });
    await k.launched("quiet");
    await k.startTurn("quiet");
    expect(await detectStalls(hub, 60_000)).toEqual([]);
    hub.clock.advance(20);
    expect((await detectStalls(hub, 10)).map((s) => s.name)).toEqual(["quiet"]);
    expect(await detectStalls(hub, 10)).toEqual([]);
    expect((await k.status("quiet")).stalled).toBe(true);
    await appendTranscript(hub, await k.pk("quiet"), { interactionId: null, direction: "out", type: "assistant", subtype: null, payload: {} });
    expect((await k.status("quiet")).stalled).toBe(false);
    expect(types()).toContain("session.unstalled");
  });

  it("transcript pages forward and truncates huge lines", async () => {
    await k.spawn({ name: "t" });
    const pk = await k.pk("t");
    for (let i = 0; i < 3; i++) await appendTranscript(hub, pk, { interactionId: null, direction: "out", type: "assistant", subtype: null, payload: { i } });
    await appendTranscript(hub, pk, { interactionId: null, direction: "out", type: "assistant", subtype: null, payload: { big: "x".repeat(300_000) } });
    const first = await transcript(hub, OPERATOR, { name: "t", limit: 2 });
    expect(first.entries.map((e) => e.payload)).toEqual([{ i: 0 }, { i: 1 }]);
    const rest = await transcript(hub, OPERATOR, { name: "t", after: first.entries[1].id, limit: 10 });
    expect(rest.entries[0].payload).toEqual({ i: 2 });
    expect(rest.entries[1].payload).toMatchObject({ truncated: true });
  });

  it("tokens labelled for sessions cannot be created by hand", async () => {
    await createToken(hub, OPERATOR, { name: "m", kind: "member", label: "mine" });
    expect((await authenticate(hub, (await createToken(hub, OPERATOR, { name: "m2", kind: "member" })).token)).sessionId).toBeUndefined();
  });
});
