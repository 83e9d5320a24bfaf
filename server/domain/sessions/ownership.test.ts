/**
 * Sessions belong to themselves and to whoever spawned them (docs/security.md#capabilities): others may see that they exist
 * and their state, not operate them or read what they said; a lead of the team and the operator may.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { ListEventsInput } from "../../../lib/api/teams.ts";
import { createToken } from "../auth/tokens.service.ts";
import { grantLead } from "../auth/grants.service.ts";
import { sendMessage as dm } from "../chat/send.ts";
import { listEvents } from "../events/events.service.ts";
import { overview } from "../overview/overview.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { decideApproval, listApprovals } from "./approvals.ts";
import { cleanupSessions, deleteSession } from "./control.service.ts";
import { lastOutput, listSessions, sessionHistory, sessionStatus, transcript } from "./queries.service.ts";
import { requestApproval } from "./runtime.ts";

let hub: TempHub;
let k: SessionKit;
const ALICE: Principal = { name: "alice", kind: "member" };
const BOB: Principal = { name: "bob", kind: "member" };

beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
  for (const name of ["alice", "bob"]) await createToken(hub, OPERATOR, { name, kind: "member" });
  await k.spawn({ name: "alices", prompt: "go", approvalTimeoutMs: 60_000 }, ALICE);
  await k.launched("alices");
  const turn = await k.startTurn("alices");
  await requestApproval(hub, await k.pk("alices"), { requestId: "r1", toolName: "Bash", input: { command: "cat secret" }, reason: "asks" });
  expect(turn).toBeTruthy();
});
afterEach(() => hub.close());

describe("operating a session", () => {
  it("is refused to a member who does not own it, naming the rule, and writes nothing", async () => {
    const asBob = sessionKit(hub, BOB);
    const ops: Array<[string, () => Promise<unknown>]> = [
      ["session.delete", () => deleteSession(hub, BOB, { name: "alices" })],
      ["session.stop", () => asBob.stop("alices")],
      ["session.kill", () => asBob.kill("alices")],
      ["session.pause", () => asBob.pause("alices")],
      ["session.send", () => asBob.send({ name: "alices", message: "do my bidding" })],
    ];
    for (const [operation, call] of ops) {
      const { details } = await refusedWithoutWriting(hub, call);
      expect([operation, details]).toEqual([operation, { rule: "owner", operation, principal: "bob", team: "default" }]);
    }
    expect((await refusedWithoutWriting(hub, () => cleanupSessions(hub, BOB, { days: 0, team: "default" }))).details).toMatchObject({
      operation: "sessions.cleanup",
    });
  });

  it("is allowed to its spawner and to a lead of its team", async () => {
    await sessionKit(hub, ALICE).pause("alices");
    await grantLead(hub, OPERATOR, LeadRefInput.parse({ name: "bob" }));
    await sessionKit(hub, BOB).resume("alices");
    expect((await deleteSession(hub, BOB, { name: "alices" })).deleted).toBe("alices");
  });
});

describe("reading a session", () => {
  it("its transcript, output and history are its owners'; others see its state without output or approval inputs", async () => {
    const reads = [
      () => transcript(hub, BOB, { name: "alices", limit: 10 }),
      () => lastOutput(hub, BOB, { name: "alices" }),
      () => sessionHistory(hub, BOB, { name: "alices", limit: 10 }),
    ];
    for (const read of reads) {
      expect((await refusal(read())).details).toMatchObject({ operation: "session.read", principal: "bob" });
    }
    expect((await transcript(hub, ALICE, { name: "alices", limit: 10 })).name).toBe("alices");
    const seen = await sessionStatus(hub, BOB, { name: "alices" });
    expect([seen.running?.prompt, seen.approvals[0].input, (seen.approvals[0] as { inputHidden?: boolean }).inputHidden]).toEqual(["", {}, true]);
    expect((await sessionStatus(hub, ALICE, { name: "alices" })).running?.prompt).toBe("go");
    expect((await listSessions(hub, BOB, { limit: 10 }))[0]).toMatchObject({ name: "alices", outputHidden: true });
  });
});

describe("approvals", () => {
  it("inputs are shown to those who may decide them; deciding is for the operator and the team's leads", async () => {
    expect((await listApprovals(hub, ALICE, { limit: 10 }))[0]).toMatchObject({ input: {}, inputHidden: true });
    expect((await listApprovals(hub, OPERATOR, { limit: 10 }))[0].input).toEqual({ command: "cat secret" });
    expect((await overview(hub, ALICE, { team: "default" })).attention.approvals[0].items[0].input).toEqual({});
    const [a] = await listApprovals(hub, OPERATOR, { limit: 10 });
    const refused = await refusedWithoutWriting(hub, () => decideApproval(hub, ALICE, { name: "alices", approvalId: a.id, decision: "allow" }));
    expect(refused.details).toMatchObject({ rule: "lead", operation: "approval.decide" });
    await grantLead(hub, OPERATOR, LeadRefInput.parse({ name: "bob" }));
    expect((await listApprovals(hub, BOB, { limit: 10 }))[0].input).toEqual({ command: "cat secret" });
    expect(await decideApproval(hub, BOB, { name: "alices", approvalId: a.id, decision: "deny" })).toMatchObject({ status: "denied", decidedBy: "bob" });
  });
});

describe("the event log", () => {
  it("shows a member neither others' direct messages nor approval inputs, and hub-wide events only to the operator", async () => {
    await dm(hub, ALICE, { team: "default", to: "operator", message: "private to the operator" });
    const mine = await listEvents(hub, BOB, ListEventsInput.parse({}));
    expect(mine.events.some((e) => e.type === "message.sent")).toBe(false);
    expect(mine.events.find((e) => e.type === "session.approval_requested")?.payload).toMatchObject({ inputHidden: true });
    expect(mine.lastId).toBe((await listEvents(hub, OPERATOR, ListEventsInput.parse({}))).lastId);
    expect((await listEvents(hub, ALICE, ListEventsInput.parse({ type: "message.sent" }))).events).toHaveLength(1);
    expect((await refusal(listEvents(hub, BOB, ListEventsInput.parse({ hub: true })))).details).toMatchObject({ operation: "events.hub" });
  });
});
