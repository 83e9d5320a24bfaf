/**
 * No spend on idle members (docs/budgets.md), with five real `claude` team members against the
 * fake API: a broadcast to the team wakes only the member with a contract ready, counted in the
 * turns each session was given. Five live sessions need an admission limit of at least five.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
const TEAM = "five";
const MEMBERS = ["a", "b", "c", "d", "e"];
const prompts = async (name: string): Promise<string[]> =>
  (await api(sh.hub, "GET", `/api/sessions/${name}/history`)).body.interactions.map((i: { prompt: string }) => i.prompt);
const settled = (name: string, interactions: number) =>
  waitForSession(sh.hub, name, (s) => s.status === "idle" && s.queued === 0 && s.interactions === interactions, 90_000);

beforeAll(async () => {
  sh = await startSessionHub(directiveModel(), { TEAMHUB_MAX_LIVE_SESSIONS: "5" });
  // c has work before anyone is live, so no contract notice wakes it: the broadcast is the first thing that may.
  expect((await api(sh.hub, "POST", "/api/contracts", { team: TEAM, id: "only-c", title: "Only c has work", assignee: "c" })).status).toBe(201);
  for (const name of MEMBERS) expect((await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name })).status).toBe(201);
  for (const name of MEMBERS) await settled(name, 0);
}, 180_000);
afterAll(async () => sh?.close());

describe("a broadcast to a team of five where one member has work", () => {
  it("wakes one session, not five", async () => {
    expect((await api(sh.hub, "POST", "/api/chat/broadcast", { team: TEAM, message: "standup in 5" })).status).toBe(200);
    // Wake-ups are queued in commit order, so once c's turn for this later message has run, a turn
    // the broadcast gave anyone would be queued or done by now.
    expect((await api(sh.hub, "POST", "/api/chat/send", { team: TEAM, to: "c", message: "fence" })).status).toBe(200);
    await settled("c", 2);
    const [broadcast, fence] = await prompts("c");
    expect(broadcast).toContain("New message: operator wrote (broadcast");
    expect(fence).toContain("New message: operator wrote (dm");
    for (const name of ["a", "b", "d", "e"]) {
      expect((await api(sh.hub, "GET", `/api/sessions/${name}`)).body).toMatchObject({ status: "idle", interactions: 0, queued: 0 });
      expect(await prompts(name)).toEqual([]);
    }
    // The others were told all the same: it waits in their inbox.
    const inbox = (await api(sh.hub, "GET", `/api/chat/messages?team=${TEAM}&member=a`)).body.messages as Array<{ kind: string; text: string }>;
    expect(inbox.map((m) => [m.kind, m.text])).toContainEqual(["broadcast", "standup in 5"]);
  }, 180_000);
});
