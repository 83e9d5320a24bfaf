import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionKit, type SessionKit } from "../testing/session-kit.ts";
import { tempHub, type TempHub } from "../testing/temp-hub.ts";
import { OPERATOR } from "../domain/principal.ts";
import { updateTeamSettings } from "../domain/teams/settings.ts";
import { YIELDED } from "../domain/sessions/admission.ts";
import { wakeMember, type Wake } from "../domain/sessions/wake.ts";
import { sessionHistory } from "../domain/sessions/queries.service.ts";
import type { HubEvent } from "../events/types.ts";
import { wakeFor } from "./wakeups.ts";

const event = (type: string, payload: Record<string, unknown>, teamId: string | null = "t"): HubEvent => ({ id: 1, teamId, type, subject: "", payload, principal: "x", causedBy: null, depth: 0, at: new Date() });

describe("wakeFor", () => {
  it("wakes the assignee of a contract that became ready, with the reason when it was reopened", () => {
    expect(wakeFor(event("contract.status_changed", { id: "build", from: "pending", to: "ready", assignee: "dev" }))).toMatchObject({ member: "dev", reason: "contract", text: expect.stringContaining("Your contract 'build' is ready. Start it") });
    expect(wakeFor(event("contract.status_changed", { id: "build", from: "completed", to: "ready", assignee: "dev", reason: "Tests failing: 3 failures" }))!.text).toContain("(completed → ready: Tests failing: 3 failures)");
    expect(wakeFor(event("contract.status_changed", { id: "build", from: "ready", to: "in_progress", assignee: "dev" }))).toBeNull();
  });

  it("wakes recipients of messages, passes turns through, and leaves replies to the waiting ask", () => {
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "ask", text: "port?", messageId: 7 }))).toMatchObject({ member: "b", reason: "message", text: expect.stringContaining("a asks you (reply with team_reply, messageId 7)") });
    expect(wakeFor(event("message.sent", { from: "pipeline:p", to: "b", kind: "turn", text: "do X" }))).toEqual({ team: "t", member: "b", reason: "turn", text: "do X" });
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "reply", text: "8080" }))).toBeNull();
    expect(wakeFor(event("message.sent", { from: "a", to: null, kind: "broadcast", text: "x" }))).toBeNull();
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "dm", text: "x" }, null))).toBeNull();
  });
});

describe("wakeMember", () => {
  let hub: TempHub;
  let k: SessionKit;
  beforeEach(() => {
    hub = tempHub();
    k = sessionKit(hub);
  });
  afterEach(() => hub.close());

  const wake = (w: Wake) => wakeMember(hub, w, 0);
  const prompts = async (name: string) => (await sessionHistory(hub, OPERATOR, { name, limit: 50 })).interactions.map((i) => i.prompt);

  it("queues a turn for the member's live session; one pending message wake-up is enough", async () => {
    await k.teamSpawn({ team: "t", name: "dev" });
    const msg = { team: "t", member: "dev", reason: "message" as const, text: "[Team Hub] New message: a wrote" };
    expect(await wake(msg)).toBe(true);
    expect(await wake(msg)).toBe(false);
    expect(await wake({ team: "t", member: "dev", reason: "contract", text: "[Team Hub] Your contract 'x' is ready." })).toBe(true);
    expect(await prompts("dev")).toEqual([msg.text, "[Team Hub] Your contract 'x' is ready."]);
  });

  it("does nothing without a live session, or with wake-ups off (except explicit turns)", async () => {
    expect(await wake({ team: "t", member: "nobody", reason: "message", text: "x" })).toBe(false);
    await k.teamSpawn({ team: "t", name: "dev" });
    await updateTeamSettings(hub, OPERATOR, { team: "t", wake: "off" });
    expect(await wake({ team: "t", member: "dev", reason: "message", text: "x" })).toBe(false);
    expect(await wake({ team: "t", member: "dev", reason: "turn", text: "do it" })).toBe(true);
    await k.exit("dev");
    expect(await wake({ team: "t", member: "dev", reason: "turn", text: "again" })).toBe(false);
  });

  it("resumes a member that yielded its place to the admission queue", async () => {
    await k.teamSpawn({ team: "t", name: "dev" });
    await k.launched("dev");
    await hub.db.write("test.yield", "test", (tx) => tx.run(`UPDATE "Session" SET "status" = 'stopped', "exitReason" = ?, "pid" = NULL WHERE "name" = 'dev'`, [YIELDED]));
    expect(await wake({ team: "t", member: "dev", reason: "message", text: "[Team Hub] New message: a wrote" })).toBe(true);
    expect(await k.status("dev")).toMatchObject({ status: "starting", queued: 1, exitReason: null });
  });
});
