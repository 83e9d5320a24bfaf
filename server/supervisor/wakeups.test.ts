import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CompleteContractInput, CreateContractInput } from "../../lib/api/contracts.ts";
import { sql } from "../db/sql.ts";
import { sessionKit, type SessionKit } from "../testing/session-kit.ts";
import { tempHub, type TempHub } from "../testing/temp-hub.ts";
import { OPERATOR } from "../domain/principal.ts";
import { updateTeamSettings } from "../domain/teams/settings.ts";
import { YIELDED } from "../domain/sessions/admission.ts";
import { wakeMember, type Wake } from "../domain/sessions/wake.ts";
import { sessionHistory } from "../domain/sessions/queries.service.ts";
import type { EventType, HubEvent } from "../events/types.ts";
import { LoggedEvent } from "../../lib/api/events.ts";
import { deliver } from "../domain/chat/messages.ts";
import { completeContractCommand, createContract } from "../domain/contracts/contracts.service.ts";
import { startWakeups, wakeFor } from "./wakeups.ts";

/** An event as the log would hold it; a message's ids default to none. */
const event = (type: EventType, payload: Record<string, unknown>, teamId: string | null = "t"): HubEvent =>
  LoggedEvent.parse({
    id: 1,
    teamId,
    type,
    subject: "",
    payload: type === "message.sent" ? { messageId: null, replyTo: null, ...payload } : payload,
    principal: "x",
    causedBy: null,
    depth: 0,
    at: new Date(),
  });

describe("wakeFor", () => {
  it("wakes the recipient of a contract notice only when it has something to do, even one it caused itself", () => {
    const notice = {
      messageId: 3,
      from: "qa-dev",
      to: "api-dev",
      kind: "contract",
      text: `Contract 'fix' is ready: start it with contract_start({id: "fix"})`,
    };
    expect(wakeFor(event("message.sent", { ...notice, actionable: true }))).toEqual({
      team: "t",
      member: "api-dev",
      reason: "contract",
      text: `[Team Hub] Contract notice from qa-dev (messageId 3):\n\n${notice.text}`,
    });
    expect(wakeFor(event("message.sent", { ...notice, actionable: false }))).toBeNull();
    expect(wakeFor(event("message.sent", { ...notice, from: "api-dev", actionable: true }))).toMatchObject({ member: "api-dev", reason: "contract" });
    // The notice is what wakes; the transition itself does not (it would wake once per contract).
    expect(wakeFor(event("contract.status_changed", { id: "fix", from: "pending", to: "ready", reason: null, assignee: "api-dev", retryCount: 0 }))).toBeNull();
  });

  it("wakes recipients of messages, passes turns through, and leaves replies to the waiting ask", () => {
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "ask", text: "port?", messageId: 7 }))).toMatchObject({
      member: "b",
      reason: "message",
      text: expect.stringContaining("a asks you (reply with team_reply, messageId 7)"),
    });
    expect(wakeFor(event("message.sent", { from: "pipeline:p", to: "b", kind: "turn", text: "do X" }))).toEqual({
      team: "t",
      member: "b",
      reason: "turn",
      text: "do X",
    });
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "reply", text: "8080" }))).toBeNull();
    expect(wakeFor(event("message.sent", { from: "a", to: null, kind: "broadcast", text: "x" }))).toBeNull();
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "broadcast", text: "x", messageId: 9 }))).toMatchObject({
      member: "b",
      reason: "message",
      onlyWithWork: true,
    });
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "dm", text: "x", messageId: 9 }))).not.toHaveProperty("onlyWithWork");
    expect(wakeFor(event("message.sent", { from: "supervisor", to: "b", kind: "system", text: "Budget warning: …" }))).toBeNull();
    expect(wakeFor(event("message.sent", { from: "a", to: "b", kind: "dm", text: "x" }, null))).toBeNull();
  });
});

describe("wakeMember", () => {
  let hub: TempHub;
  let k: SessionKit;
  beforeEach(async () => {
    hub = await tempHub();
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
    await hub.db.write("test.yield", "test", (tx) =>
      tx.run(sql`UPDATE "Session" SET "status" = 'stopped', "exitReason" = ${YIELDED}, "pid" = NULL WHERE "name" = 'dev'`),
    );
    expect(await wake({ team: "t", member: "dev", reason: "message", text: "[Team Hub] New message: a wrote" })).toBe(true);
    expect(await k.status("dev")).toMatchObject({ status: "starting", queued: 1, exitReason: null });
  });
});

describe("wake-ups from contract notices", () => {
  let hub: TempHub;
  let k: SessionKit;
  let stop: () => void;
  beforeEach(async () => {
    hub = await tempHub();
    k = sessionKit(hub);
    stop = startWakeups(hub, 0);
    await k.teamSpawn({ team: "t", name: "dev" });
  });
  afterEach(async () => {
    stop();
    await hub.close();
  });

  const create = (input: Record<string, unknown>) =>
    createContract(hub, OPERATOR, CreateContractInput.parse({ team: "t", title: "Work", assignee: "dev", ...input }));
  const prompts = async () => (await sessionHistory(hub, OPERATOR, { name: "dev", limit: 50 })).interactions.map((i) => i.prompt);
  const after = { dependencies: [{ type: "contract", contractId: "gate" }] };

  it("gives a live member one turn per transaction, only when something is ready for it, saying how to start", async () => {
    await create({ id: "gate", assignee: "other" });
    await create({ id: "p", ...after });
    await create({ id: "q", ...after });
    await completeContractCommand(hub, OPERATOR, CompleteContractInput.parse({ team: "t", id: "gate" }));
    await create({ id: "r" });
    // Wakes run in commit order: had the pending creations woken dev, their turns would come first.
    await vi.waitFor(async () => expect(await prompts()).toHaveLength(2));
    const [cascade, created] = await prompts();
    expect(cascade).toMatch(/^\[Team Hub\] Contract notice from operator \(messageId \d+\):\n\n2 contract notices:\n- Contract 'p' \(Work\): pending → ready/);
    expect(cascade).toContain(`start it with contract_start({id: "q"}), do the work, and publish its outputs with artifact_publish (contractId "q")`);
    expect(created).toContain(`operator created contract 'r' (Work) for you. It is ready: start it with contract_start({id: "r"})`);
  });

  it("gives no turn with the team's wake-ups off, though the notice is in the inbox", async () => {
    await updateTeamSettings(hub, OPERATOR, { team: "t", wake: "off" });
    await create({ id: "r" });
    // An explicit turn is always delivered, and after the notice's wake-up (commit order): once it is there, the notice's would be too.
    await hub.db.write("test.turn", "operator", (tx) => deliver(tx, { team: "t", from: "pipeline:p", to: ["dev"], kind: "turn", text: "explicit turn" }));
    await vi.waitFor(async () => expect(await prompts()).toEqual(["explicit turn"]));
    expect(hub.events.filter((e) => e.type === "message.sent").map((e) => [e.payload.kind, e.payload.to, e.payload.actionable ?? null])).toEqual([
      ["contract", "dev", true],
      ["turn", "dev", null],
    ]);
  });

  it("a broadcast to a team of five wakes only the member with work; the others find it in their inbox", async () => {
    stop();
    const team = ["a", "b", "c", "d", "e"];
    await create({ id: "only-c", assignee: "c" });
    for (const name of team) await k.teamSpawn({ team: "t", name });
    stop = startWakeups(hub, 0);
    await hub.db.write("test.broadcast", "operator", (tx) => deliver(tx, { team: "t", from: "operator", to: team, kind: "broadcast", text: "standup in 5" }));
    // A direct message after it: once its wake-up is queued, every broadcast wake-up would be too (commit order).
    await hub.db.write("test.dm", "operator", (tx) => deliver(tx, { team: "t", from: "operator", to: ["e"], kind: "dm", text: "ping" }));
    const of = async (name: string) => (await sessionHistory(hub, OPERATOR, { name, limit: 50 })).interactions.map((i) => i.prompt);
    await vi.waitFor(async () => expect(await of("e")).toHaveLength(1));
    const turns = Object.fromEntries(await Promise.all(team.map(async (n) => [n, (await of(n)).length])));
    expect(turns).toEqual({ a: 0, b: 0, c: 1, d: 0, e: 1 });
    expect((await of("c"))[0]).toContain("operator wrote (broadcast");
    expect((await of("e"))[0]).toContain("operator wrote (dm");
  });
});
