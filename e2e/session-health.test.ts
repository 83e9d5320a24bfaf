/**
 * Health with the real CLI: stalled turns are flagged and (when configured) interrupted, empty
 * turns are flagged, a vanished work directory fails with the reason, a missing CLI is a clear
 * error, and pipelines' send_to_session reaches a live session.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api, startHub, tempDataDir } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel((req) => (JSON.stringify(req.messages).includes("say nothing") ? { text: "" } : undefined)))));
afterAll(async () => sh?.close());

const events = async (hub: SessionHub, type: string) => (await api(hub.hub, "GET", `/api/events?type=${type}&limit=500`)).body.events;

describe("stalls", () => {
  it("flags a busy session with no output as stalled and interrupts it", async () => {
    // A stall after 1.2 s of silence, interrupted automatically.
    const stalling = await startSessionHub(directiveModel(), { TEAMHUB_STALL_MINUTES: "0.02", TEAMHUB_STALL_INTERRUPT: "1" });
    try {
      await api(stalling.hub, "POST", "/api/sessions", { name: "sleepy", prompt: "@sleep 60000\n@reply late" });
      const done = await waitForSession(stalling.hub, "sleepy", (s) => s.interactions === 1 && s.status === "idle", 30_000);
      expect(done.stalled).toBe(false);
      expect((await events(stalling, "session.stalled")).map((e: any) => e.payload.name)).toEqual(["sleepy"]);
      const history = (await api(stalling.hub, "GET", "/api/sessions/sleepy/history")).body.interactions;
      expect(history[0]).toMatchObject({ status: "interrupted", resultSubtype: "error_during_execution" });
    } finally {
      await stalling.close();
    }
  }, 60_000);
});

describe("health", () => {
  it("flags a turn that ends without text or tool use", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "quiet", prompt: "say nothing" });
    await waitForSession(sh.hub, "quiet", (s) => s.interactions === 1);
    expect((await api(sh.hub, "GET", "/api/sessions/quiet/history")).body.interactions[0].empty).toBe(true);
    expect((await events(sh, "session.empty_turn")).map((e: any) => e.payload.name)).toEqual(["quiet"]);
  }, 60_000);

  it("fails with the reason when the work directory is gone at resume", async () => {
    const dir = fs.mkdtempSync(path.join(sh.work, "doomed-"));
    await api(sh.hub, "POST", "/api/sessions", { name: "homeless", workDir: dir, prompt: "hi" });
    await waitForSession(sh.hub, "homeless", (s) => s.interactions === 1);
    await api(sh.hub, "POST", "/api/sessions/homeless/stop", {});
    fs.rmSync(dir, { recursive: true });
    await api(sh.hub, "POST", "/api/sessions/homeless/resume", {});
    const failed = await waitForSession(sh.hub, "homeless", (s) => s.status === "failed");
    expect(failed).toMatchObject({ exitReason: "spawn_failed" });
    expect(failed.lastError).toContain("ENOENT");
  }, 60_000);

  it("delivers a pipeline's send_to_session as a turn of the member's live session", async () => {
    await api(sh.hub, "POST", "/api/team-spawn", { team: "ops", name: "watcher" });
    await waitForSession(sh.hub, "watcher", (s) => s.status === "idle");
    const p = await api(sh.hub, "POST", "/api/pipelines?team=ops", {
      id: "poke",
      rules: [
        {
          trigger: { type: "artifact_published", artifactId: "alarm" },
          action: { type: "send_to_session", target: "watcher", message: "@reply saw ${artifact.id} v${artifact.version}" },
        },
      ],
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    await api(sh.hub, "POST", "/api/artifacts?team=ops", { id: "alarm", type: "custom", data: { text: "ring" } });
    const s = await waitForSession(sh.hub, "watcher", (x) => x.interactions === 1);
    expect(s.lastOutput).toBe("saw alarm v1");
  }, 60_000);
});

describe("a missing CLI", () => {
  it("is refused at spawn with a message saying how to fix it", async () => {
    const hub = await startHub(tempDataDir("nocli"), { CLAUDE_BIN: "/nonexistent/claude" });
    try {
      const r = await api(hub, "POST", "/api/sessions", { name: "nobody", prompt: "hi" });
      expect(r.status).toBe(412);
      expect(r.body.error.message).toBe("CLAUDE_BIN is '/nonexistent/claude', which is not an executable file");
      expect((await api(hub, "GET", "/api/sessions")).body).toEqual([]);
    } finally {
      await hub.kill();
    }
  }, 60_000);

  it("is the binary of each runtime a request names: codex-acp for codex, claude for claude", async () => {
    const hub = await startHub(tempDataDir("nocodex"), { CLAUDE_BIN: "/nonexistent/claude", CODEX_ACP_BIN: "/nonexistent/codex-acp" });
    try {
      const codex = await api(hub, "POST", "/api/sessions", { name: "cx", runtime: "codex" });
      expect(codex.status).toBe(412);
      expect(codex.body.error.message).toBe("CODEX_ACP_BIN is '/nonexistent/codex-acp', which is not an executable file");
      const member = await api(hub, "POST", "/api/delegate", { name: "dx", task: "t", runtime: "codex" });
      expect(member.body.error.message).toContain("CODEX_ACP_BIN");
      const batch = await api(hub, "POST", "/api/batch-spawn", { sessions: [{ name: "a", runtime: "codex" }, { name: "b" }] });
      expect(batch.status).toBe(412);
      expect(batch.body.error.message).toMatch(/^CODEX_ACP_BIN is/);
      const claudeOnly = await api(hub, "POST", "/api/batch-spawn", { sessions: [{ name: "a" }, { name: "b", runtime: "claude" }] });
      expect(claudeOnly.body.error.message).toMatch(/^CLAUDE_BIN is/);
      // An unknown runtime needs no binary: the domain refuses it in its own words.
      const unknown = await api(hub, "POST", "/api/sessions", { name: "g", runtime: "gemini" });
      expect(unknown.status).toBe(400);
      expect(unknown.body.error.message).toBe("runtime: 'gemini' is not a runtime of this hub (claude, codex)");
      expect((await api(hub, "GET", "/api/sessions")).body).toEqual([]);
    } finally {
      await hub.kill();
    }
  }, 60_000);
});
