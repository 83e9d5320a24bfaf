/**
 * Kill -9 of the hub during a Codex turn: the session comes back interrupted with its transcript, and the next
 * message resumes its conversation (ACP session/load) with the history the model saw before.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "./helpers/hub-process.ts";
import { waitForSession } from "./helpers/session-hub.ts";
import { startCodexHub, type CodexHub } from "./helpers/codex.ts";

let sh: CodexHub;
beforeAll(async () => (sh = await startCodexHub()));
afterAll(async () => sh?.close());

describe("a Codex session when the hub is killed with -9 during its turn", () => {
  it("is interrupted with its transcript intact, and resumes its conversation", async () => {
    await api(sh.hub, "POST", "/api/sessions", { name: "cx-back", runtime: "codex", prompt: "@reply first answer" });
    const before = await waitForSession(sh.hub, "cx-back", (s) => s.status === "idle" && s.interactions === 1);
    await api(sh.hub, "POST", "/api/sessions/cx-back/send", { message: "@sleep 60000\n@reply never" });
    await waitForSession(sh.hub, "cx-back", (s) => s.status === "busy" && s.running !== null);
    const transcript = (await api(sh.hub, "GET", "/api/sessions/cx-back/transcript?limit=500")).body.entries;

    await sh.hub.kill("SIGKILL");
    await sh.restart();

    const s = (await api(sh.hub, "GET", "/api/sessions/cx-back")).body;
    expect(s).toMatchObject({ status: "interrupted", exitReason: "hub_restart", pid: null, claudeSessionId: before.claudeSessionId });
    const entries = (await api(sh.hub, "GET", "/api/sessions/cx-back/transcript?limit=500")).body.entries;
    expect(entries.slice(0, transcript.length)).toEqual(transcript);
    const history = (await api(sh.hub, "GET", "/api/sessions/cx-back/history")).body.interactions;
    expect(history.map((i: any) => i.status)).toEqual(["completed", "interrupted"]);

    const r = (await api(sh.hub, "POST", "/api/sessions/cx-back/send", { message: "@reply back again", wait: true })).body;
    expect(r.interaction).toMatchObject({ status: "completed", response: "back again" });
    expect((await api(sh.hub, "GET", "/api/sessions/cx-back")).body.claudeSessionId).toBe(before.claudeSessionId);
    // The model saw the conversation before the kill: codex loaded it from its rollout.
    expect(JSON.stringify(sh.openai.requests.at(-1)!.input)).toContain("first answer");
    // The replayed history is not stored again.
    const after = (await api(sh.hub, "GET", "/api/sessions/cx-back/transcript?limit=500")).body.entries;
    expect(after.filter((e: any) => e.type === "result")).toHaveLength(2);
  }, 120_000);
});
