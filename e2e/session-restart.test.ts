/**
 * Restart recovery with the real CLI: kill -9 the hub while two sessions are busy; after the
 * restart both are interrupted with their transcripts intact, and resume continues each
 * conversation.
 */
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { allPrompts } from "./fake-anthropic/request.ts";
import { api } from "./helpers/hub-process.ts";
import fs from "node:fs";
import { conversationFiles, startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
beforeAll(
  async () =>
    (sh = await startSessionHub(
      directiveModel((req) => ({
        // Trimmed: how a CLI joins a resumed conversation's prompts (an interrupted turn, its "Continue…" note) varies
        // by release and by where the kill fell, and may leave a line break after a prompt.
        text: `seen: ${allPrompts(req)
          .map((p) => p.trim())
          .filter((p) => !p.startsWith("@"))
          .join(" | ")}`,
      })),
    )),
);
afterAll(async () => sh?.close());

const claudeAlive = (sessionId: string) => spawnSync("pgrep", ["-f", sessionId]).status === 0;

describe("hub killed with -9 while two sessions are busy", () => {
  it("brings both back as interrupted, transcripts intact, and resume continues each conversation", async () => {
    const names = ["left", "right"];
    for (const name of names) await api(sh.hub, "POST", "/api/sessions", { name, prompt: `hello from ${name}` });
    const before: Record<string, any> = {};
    for (const name of names) before[name] = await waitForSession(sh.hub, name, (s) => s.status === "idle" && s.interactions === 1);
    // The kill must find the first turn in the CLI's conversation file: the CLI writes it some time after the turn (2.1.197
    // well after it), and a CLI killed before that has nothing to resume, whatever the hub does (a sandboxed CLI dies
    // with the hub: bubblewrap runs it with --die-with-parent).
    for (const name of names) {
      await expect
        .poll(() => conversationFiles(sh.hub, before[name].claudeSessionId).some((f) => fs.readFileSync(f, "utf8").includes(`seen: hello from ${name}`)), {
          timeout: 10_000,
        })
        .toBe(true);
    }
    for (const name of names) await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: "@sleep 60000\n@reply never" });
    for (const name of names) await waitForSession(sh.hub, name, (s) => s.status === "busy" && s.running !== null);
    const transcripts: Record<string, unknown[]> = {};
    for (const name of names) transcripts[name] = (await api(sh.hub, "GET", `/api/sessions/${name}/transcript?limit=500`)).body.entries;

    await sh.hub.kill("SIGKILL");
    await sh.restart();

    for (const name of names) {
      const s = (await api(sh.hub, "GET", `/api/sessions/${name}`)).body;
      expect(s).toMatchObject({ status: "interrupted", exitReason: "hub_restart", pid: null, claudeSessionId: before[name].claudeSessionId, interactions: 1 });
      expect(s.costUsd).toBeCloseTo(before[name].costUsd, 10);
      const entries = (await api(sh.hub, "GET", `/api/sessions/${name}/transcript?limit=500`)).body.entries;
      // Everything stored before the kill is still there (the CLI may have added a line since).
      expect(entries.slice(0, transcripts[name].length)).toEqual(transcripts[name]);
      const history = (await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions;
      expect(history.map((i: any) => i.status)).toEqual(["completed", "interrupted"]);
      // The orphaned CLI must not keep writing the conversation we are about to resume.
      await expect.poll(() => claudeAlive(before[name].claudeSessionId), { timeout: 10_000 }).toBe(false);
    }

    for (const name of names) {
      const r = (await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: "back again?", wait: true })).body;
      expect(r.completed).toBe(true);
      expect(r.interaction.response, JSON.stringify({ interaction: r.interaction, session: r.session }, null, 2)).toMatch(
        new RegExp(`^seen: hello from ${name} \\| .*back again\\?$`),
      );
    }
  }, 180_000);
});
