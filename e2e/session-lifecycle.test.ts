/**
 * Lifecycle with the real CLI: stop → resume continues the conversation under the same Claude
 * session id; fork branches it; pause queues messages; kill mid-turn, then resume.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { allPrompts } from "./fake-anthropic/request.ts";
import { api } from "./helpers/hub-process.ts";
import { conversationFiles, startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
// Without directives the model reports every prompt of the conversation it was sent.
beforeAll(
  async () =>
    (sh = await startSessionHub(
      directiveModel((req) => ({
        text: `seen: ${allPrompts(req)
          .filter((p) => !p.startsWith("@"))
          .join(" | ")}`,
      })),
    )),
);
afterAll(async () => sh?.close());

const send = async (name: string, message: string, wait = true) => (await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message, wait })).body;
const status = async (name: string) => (await api(sh.hub, "GET", `/api/sessions/${name}`)).body;
const events = async (type: string) => (await api(sh.hub, "GET", `/api/events?type=${type}&limit=500`)).body.events;

describe("stop and resume", () => {
  it("keeps the Claude session id and continues the conversation in a new process", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "life", prompt: "remember apples" });
    const before = await waitForSession(sh.hub, "life", (s) => s.status === "idle" && s.interactions === 1);
    const stopped = (await api(sh.hub, "POST", "/api/sessions/life/stop", {})).body;
    expect(stopped).toMatchObject({ status: "stopped", pid: null, exitReason: "stopped", claudeSessionId: before.claudeSessionId });

    const resumed = (await api(sh.hub, "POST", "/api/sessions/life/resume", {})).body;
    expect(resumed.status).toBe("starting");
    const after = await waitForSession(sh.hub, "life", (s) => s.status === "idle");
    expect(after.pid).not.toBe(before.pid);
    const r = await send("life", "what did I say?");
    expect(r.interaction.response).toBe("seen: remember apples | what did I say?");
    expect((await status("life")).claudeSessionId).toBe(before.claudeSessionId);
    expect(
      (await events("session.status_changed"))
        .filter((e: any) => e.payload.name === "life")
        .map((e: any) => e.payload.to)
        .reverse(),
    ).toEqual(["idle", "busy", "idle", "stopped", "starting", "idle", "busy", "idle"]);
  }, 120_000);

  it("send to a stopped session resumes it first", async () => {
    await api(sh.hub, "POST", "/api/sessions/life/stop", {});
    const r = await send("life", "still there?");
    expect(r).toMatchObject({ completed: true, interaction: { response: "seen: remember apples | what did I say? | still there?" } });
  }, 120_000);
});

describe("fork", () => {
  it("starts a new session from the parent's conversation and leaves the parent unchanged", async () => {
    const parent = await status("life");
    const forked = await api(sh.hub, "POST", "/api/sessions/life/fork", { newName: "life-fork", prompt: "fork question" });
    expect(forked.status).toBe(201);
    expect(forked.body).toMatchObject({ name: "life-fork", parent: "life" });
    const child = await waitForSession(sh.hub, "life-fork", (s) => s.interactions === 1 && s.status === "idle");
    expect(child.claudeSessionId).not.toBe(parent.claudeSessionId);
    expect(child.lastOutput).toBe("seen: remember apples | what did I say? | still there? | fork question");
    const parentNext = await send("life", "parent again");
    expect(parentNext.interaction.response).toBe("seen: remember apples | what did I say? | still there? | parent again");
    expect((await status("life")).claudeSessionId).toBe(parent.claudeSessionId);
  }, 120_000);
});

describe("pause", () => {
  it("queues messages until resume, then delivers them in order in the same process", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "pauser" });
    const idle = await waitForSession(sh.hub, "pauser", (s) => s.status === "idle");
    expect((await api(sh.hub, "POST", "/api/sessions/pauser/pause", {})).body.status).toBe("paused");
    const asked = sh.fake.requests.length;
    await send("pauser", "one", false);
    await send("pauser", "two", false);
    await expect.poll(() => status("pauser")).toMatchObject({ queued: 2 });
    expect(await status("pauser")).toMatchObject({ status: "paused", queued: 2, interactions: 0 });
    expect(sh.fake.requests.length).toBe(asked);
    await api(sh.hub, "POST", "/api/sessions/pauser/resume", {});
    const done = await waitForSession(sh.hub, "pauser", (s) => s.interactions === 2 && s.status === "idle");
    expect(done.pid).toBe(idle.pid);
    const history = (await api(sh.hub, "GET", "/api/sessions/pauser/history")).body.interactions;
    expect(history.map((i: any) => i.response)).toEqual(["seen: one", "seen: one | two"]);
  }, 120_000);
});

describe("kill mid-turn", () => {
  it("ends the process, marks the turn interrupted with its transcript kept, and resume works", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "victim", prompt: "warm up" });
    await waitForSession(sh.hub, "victim", (s) => s.status === "idle" && s.interactions === 1);
    await send("victim", "@sleep 20000\n@reply too slow", false);
    // Killed once the CLI is inside the turn: its request for the slow reply has reached the API.
    await vi.waitFor(() => expect(sh.fake.requests.some((req) => allPrompts(req).some((p) => p.includes("too slow")))).toBe(true), { timeout: 30_000 });
    const killed = (await api(sh.hub, "POST", "/api/sessions/victim/kill", {})).body;
    expect(killed).toMatchObject({ status: "killed", pid: null, exitReason: "killed" });
    const history = (await api(sh.hub, "GET", "/api/sessions/victim/history")).body.interactions;
    expect(history[1]).toMatchObject({ n: 2, status: "interrupted" });
    const transcript = (await api(sh.hub, "GET", "/api/sessions/victim/transcript?limit=500")).body.entries;
    const turn2 = transcript.filter((e: any) => e.interactionId === history[1].id);
    expect(turn2[0]).toMatchObject({ direction: "in", type: "user" });
    expect(turn2.some((e: any) => e.type === "system" && e.subtype === "init")).toBe(true);

    const r = await send("victim", "are you back?");
    expect(r.completed).toBe(true);
    expect(r.interaction.response).toMatch(/^seen: warm up \| .*are you back\?$/);
    expect((await status("victim")).status).toBe("idle");
  }, 120_000);
});

describe("a conversation in the CLI config dir that sessions shared before they had their own", () => {
  it("is copied into the session's own config dir on its next launch, the conversation goes on, and delete removes the copy", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "elder", prompt: "remember pears" });
    const { claudeSessionId: id } = await waitForSession(sh.hub, "elder", (s) => s.status === "idle" && s.interactions === 1);
    await api(sh.hub, "POST", "/api/sessions/elder/stop", {});
    // As an older hub left it: the conversation in the user's config dir only.
    const [own] = conversationFiles(sh.hub, id);
    const shared = path.join(sh.claudeHome, ".claude", "projects", path.basename(path.dirname(own)), `${id}.jsonl`);
    fs.mkdirSync(path.dirname(shared), { recursive: true });
    fs.renameSync(own, shared);

    expect((await send("elder", "what did I say?")).interaction.response).toBe("seen: remember pears | what did I say?");
    expect(conversationFiles(sh.hub, id)).toEqual([own]);
    await vi.waitFor(() => expect(fs.readFileSync(own, "utf8")).toContain("what did I say?"));
    // The old copy is left as it was: the user's config dir is the user's.
    expect(fs.readFileSync(shared, "utf8")).not.toContain("what did I say?");

    expect((await api(sh.hub, "DELETE", "/api/sessions/elder")).status).toBe(200);
    const sessionDir = path.resolve(own, "../../../..");
    expect(path.basename(path.dirname(sessionDir))).toBe("sessions");
    await vi.waitFor(() => expect(fs.existsSync(sessionDir)).toBe(false));
  }, 120_000);
});
