import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { countApprovals, decideApproval, decideApprovals, listApprovals } from "./approvals.ts";
import { cancelApproval, expireApproval, requestApproval } from "./runtime.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
  await k.spawn({ name: "s", prompt: "go", approvalTimeoutMs: 60_000 });
  await k.launched("s");
  await k.startTurn("s");
});
afterEach(() => hub.close());

const ask = async (requestId = "r1") =>
  (await requestApproval(hub, await k.pk("s"), { requestId, toolName: "Bash", input: { command: "npm i" }, reason: "edit preset asks" }))!;

describe("approvals", () => {
  it("a request waits as pending and puts the session in waiting_permission until decided", async () => {
    const a = await ask();
    expect(a).toMatchObject({ session: "s", toolName: "Bash", status: "pending", input: { command: "npm i" } });
    expect(a.expiresAt.getTime() - a.createdAt.getTime()).toBe(60_000);
    expect((await k.status("s")).status).toBe("waiting_permission");
    const decided = await decideApproval(hub, OPERATOR, { name: "s", approvalId: a.id, decision: "allow", note: "fine" });
    expect(decided).toMatchObject({ status: "allowed", decidedBy: "operator", note: "fine" });
    expect((await k.status("s")).status).toBe("busy");
    expect(hub.events.at(-1)).toMatchObject({ type: "session.approval_decided", payload: { approvalId: a.id, status: "allowed", requestId: "r1" } });
  });

  it("stays waiting while another request is pending", async () => {
    const a = await ask("r1");
    await ask("r2");
    await decideApproval(hub, OPERATOR, { name: "s", approvalId: a.id, decision: "deny" });
    expect((await k.status("s")).status).toBe("waiting_permission");
  });

  it("only an operator decides, once, for the right session", async () => {
    const a = await ask();
    expect(
      (await refusedWithoutWriting(hub, () => decideApproval(hub, { name: "agent", kind: "agent" }, { name: "s", approvalId: a.id, decision: "allow" }))).code,
    ).toBe("forbidden");
    expect((await refusedWithoutWriting(hub, () => decideApproval(hub, OPERATOR, { name: "s", approvalId: 999, decision: "allow" }))).code).toBe("not_found");
    await k.spawn({ name: "other" });
    expect((await refusal(decideApproval(hub, OPERATOR, { name: "other", approvalId: a.id, decision: "allow" }))).code).toBe("not_found");
    await decideApproval(hub, OPERATOR, { name: "s", approvalId: a.id, decision: "deny" });
    expect((await refusedWithoutWriting(hub, () => decideApproval(hub, OPERATOR, { name: "s", approvalId: a.id, decision: "allow" }))).message).toBe(
      "approval 1 is already denied",
    );
  });

  it("a deadline or a cancel settles only what is still pending", async () => {
    const a = await ask("r1");
    expect(await expireApproval(hub, a.id)).toMatchObject({ status: "timed_out", decidedBy: "supervisor" });
    expect(await expireApproval(hub, a.id)).toBeNull();
    const b = await ask("r2");
    await cancelApproval(hub, b.id, "withdrawn");
    expect((await listApprovals(hub, OPERATOR, { limit: 10 })).map((x) => [x.id, x.status])).toEqual([
      [b.id, "cancelled"],
      [a.id, "timed_out"],
    ]);
    expect((await listApprovals(hub, OPERATOR, { team: "default", status: "timed_out", limit: 10 })).map((x) => x.id)).toEqual([a.id]);
  });

  it("a request while paused keeps the session paused", async () => {
    await k.pause("s");
    await ask();
    expect((await k.status("s")).status).toBe("paused");
  });

  it("answers several of a team at once in one transaction, skipping those settled meanwhile", async () => {
    const a = await ask("r1");
    const b = await ask("r2");
    const c = await ask("r3");
    await expireApproval(hub, b.id);
    const before = hub.events.length;
    const r = await decideApprovals(hub, OPERATOR, { team: "default", ids: [a.id, b.id, c.id], decision: "allow", note: "batch" });
    expect(r.decided.map((x) => [x.id, x.status, x.note])).toEqual([
      [a.id, "allowed", "batch"],
      [c.id, "allowed", "batch"],
    ]);
    expect(r.skipped).toEqual([{ id: b.id, status: "timed_out" }]);
    expect(hub.events.slice(before).map((e) => e.type)).toEqual(["session.approval_decided", "session.status_changed", "session.approval_decided"]);
    expect((await k.status("s")).status).toBe("busy");
  });

  it("refuses the whole batch, writing nothing, for an approval of another team or none, and for a non-operator", async () => {
    const a = await ask("r1");
    await k.spawn({ name: "elsewhere", team: "other", approvalTimeoutMs: 60_000 });
    await k.launched("elsewhere");
    await k.startTurn("elsewhere");
    const theirs = (await requestApproval(hub, await k.pk("elsewhere"), { requestId: "x", toolName: "Bash", input: {}, reason: "asks" }))!;
    const wrongTeam = await refusedWithoutWriting(hub, () => decideApprovals(hub, OPERATOR, { team: "default", ids: [a.id, theirs.id], decision: "allow" }));
    expect(wrongTeam).toMatchObject({ code: "not_found", details: { field: "ids[1]" } });
    expect((await refusedWithoutWriting(hub, () => decideApprovals(hub, OPERATOR, { team: "default", ids: [999], decision: "deny" }))).code).toBe("not_found");
    const agent = { name: "agent", kind: "agent" } as const;
    expect((await refusedWithoutWriting(hub, () => decideApprovals(hub, agent, { team: "default", ids: [a.id], decision: "allow" }))).code).toBe("forbidden");
    expect((await listApprovals(hub, OPERATOR, { status: "pending", limit: 10 })).map((x) => x.id).sort()).toEqual([a.id, theirs.id].sort());
  });

  it("allows a command for the rest of the session: one exact rule on the session, the same call waiting meanwhile allowed too", async () => {
    const a = await ask("r1");
    const same = await ask("r2");
    const other = (await requestApproval(hub, await k.pk("s"), { requestId: "r3", toolName: "Bash", input: { command: "npm ci" }, reason: "asks" }))!;
    const decided = await decideApproval(hub, OPERATOR, { name: "s", approvalId: a.id, decision: "allow", forSession: true });
    expect(decided).toMatchObject({ status: "allowed", decidedBy: "operator" });
    expect((await k.status("s")).allowedTools).toEqual(["Bash(npm i)"]);
    const events = hub.events.filter((e) => e.type === "session.approval_decided");
    expect(events.map((e) => [e.payload.approvalId, e.payload.status, e.payload.rule])).toEqual([
      [a.id, "allowed", "Bash(npm i)"],
      [same.id, "allowed", undefined],
    ]);
    expect((await listApprovals(hub, OPERATOR, { status: "pending", limit: 10 })).map((x) => x.id)).toEqual([other.id]);
    // Allowed again for the session: the rule is there once.
    const again = await ask("r4");
    await decideApproval(hub, OPERATOR, { name: "s", approvalId: again.id, decision: "allow", forSession: true });
    expect((await k.status("s")).allowedTools).toEqual(["Bash(npm i)"]);
  });

  it("refuses to remember what a rule would widen: a wildcard, several lines, a call with no command or file", async () => {
    const asking = async (requestId: string, toolName: string, input: Record<string, unknown>) =>
      (await requestApproval(hub, await k.pk("s"), { requestId, toolName, input, reason: "asks" }))!;
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ["Bash", { command: "rm -rf *.tmp" }, "it contains * or ?, which a rule reads as a wildcard"],
      ["Bash", { command: "echo a\necho b" }, "it spans several lines, and a rule holds one"],
      ["WebFetch", { url: "https://example.com" }, "WebFetch has no command or file to name, and the whole tool is more than was asked"],
    ];
    for (const [i, [tool, input, why]] of cases.entries()) {
      const a = await asking(`w${i}`, tool, input);
      const refused = await refusedWithoutWriting(hub, () =>
        decideApproval(hub, OPERATOR, { name: "s", approvalId: a.id, decision: "allow", forSession: true }),
      );
      expect(refused).toMatchObject({ code: "invalid_input", details: { issues: [{ field: "forSession" }] } });
      expect(refused.message).toBe(`forSession: approval ${a.id} cannot be allowed for the whole session: ${why}; allow it once instead`);
    }
    expect((await k.status("s")).allowedTools).toEqual([]);
  });

  it("counts what a list with the same filter takes, past the list's page (the nav's badge)", async () => {
    const asked = [];
    for (let i = 0; i < 205; i++) asked.push(await ask(`r${i}`));
    await decideApproval(hub, OPERATOR, { name: "s", approvalId: asked[0].id, decision: "deny" });
    await k.spawn({ name: "elsewhere", team: "other", approvalTimeoutMs: 60_000 });
    await k.launched("elsewhere");
    await k.startTurn("elsewhere");
    await requestApproval(hub, await k.pk("elsewhere"), { requestId: "x", toolName: "Bash", input: {}, reason: "asks" });
    expect(await listApprovals(hub, OPERATOR, { team: "default", status: "pending", limit: 200 })).toHaveLength(200);
    expect(await countApprovals(hub, { team: "default", status: "pending" })).toEqual({ count: 204 });
    expect(await countApprovals(hub, { team: "default" })).toEqual({ count: 205 });
    expect(await countApprovals(hub, { status: "pending" })).toEqual({ count: 205 });
    expect(await countApprovals(hub, { team: "other", status: "denied" })).toEqual({ count: 0 });
  });
});
