/**
 * The release of a usage-limit hold (docs/limits.md#the-hold), on the test's clock: contracts of the account's members
 * keep their time, and a held session that cannot be resumed does not stop the others' release.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContractRefInput, CreateContractInput } from "../../../lib/api/contracts.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { sql } from "../../db/sql.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { createContract, failOverdue, getContract } from "../contracts/contracts.service.ts";
import { OPERATOR, SCHEDULER, SUPERVISOR } from "../principal.ts";
import { markLaunched } from "../sessions/runtime.ts";
import { accountLimit, limitTurn, releaseDue } from "./limits.ts";

const ACCOUNT = { account: "0123456789abcdef", label: "OAuth token 012345" };
const OTHER = { account: "fedcba9876543210", label: "API key fedcba" };

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
});
afterEach(() => hub.close());

/** A member of team t whose process runs on `account`. */
async function member(name: string, account = ACCOUNT) {
  await k.teamSpawn({ team: "t", name });
  await markLaunched(hub, await k.pk(name), {
    pid: 4242,
    mode: "fresh",
    args: [],
    sandbox: "bubblewrap",
    dir: "/nonexistent/session",
    account: account.account,
  });
}

const create = (id: string, assignee: string, timeoutMs: number) =>
  createContract(hub, OPERATOR, CreateContractInput.parse({ team: "t", id, title: id, assignee, timeoutMs }));
const contract = (id: string) => getContract(hub, ContractRefInput.parse({ team: "t", id }));

/** Alice's turn runs into the used-up window: the account is held from now. */
async function hitTheWall() {
  await k.send({ name: "alice", message: "work" });
  const turn = (await k.startTurn("alice"))!;
  const resetsAt = new Date(hub.clock.now().getTime() + 3_600_000);
  await limitTurn(hub, await k.pk("alice"), turn.id, ACCOUNT, { window: "five_hour", resetsAt }, SUPERVISOR.name);
  return (await hub.db.read((s) => accountLimit(s, ACCOUNT.account)))!;
}

describe("a hold's release", () => {
  it("moves the deadlines of the account's members' contracts by the time each was held, and none timed out meanwhile", async () => {
    for (const name of ["alice", "bob"]) await member(name);
    await member("carol", OTHER);
    const t0 = hub.clock.now().getTime();
    await create("before", "alice", 60_000);
    // Bob has no turn waiting: his session is on the held account all the same (failOverdue's assigneeHeld).
    await create("bobs", "bob", 20_000);
    await create("carols", "carol", 20_000);
    await create("overdue", "alice", 5_000);

    hub.clock.advance(10_000);
    const hold = await hitTheWall();
    expect(hold.since.getTime() - t0).toBeGreaterThanOrEqual(10_000);
    hub.clock.advance(5_000);
    await create("during", "alice", 1_000);
    const during = (await contract("during")).deadlineAt!.getTime();

    // The held members' deadlines pass while held: only carol's contract, on another account, times out.
    hub.clock.advance(25_000);
    expect(await failOverdue(hub, SCHEDULER, hub.clock.now())).toEqual(["t/carols"]);

    const mark = hub.events.length;
    await releaseDue(hub, ACCOUNT.account, SUPERVISOR.name, 0);
    const released = hub.events.slice(mark).find(isEvent("account.released"))!;
    const moved = hub.events.slice(mark).filter(isEvent("contract.deadline_moved"));
    // The release's moment (its transaction's time), which the event's own time only approaches.
    const heldMs = released.payload.heldMs;
    const releasedAt = hold.since.getTime() + heldMs;
    expect(heldMs).toBeGreaterThanOrEqual(30_000);
    expect(released.payload).toMatchObject({ how: "reset", sessions: ["alice"] });
    // A contract made during the hold is held from its own start: it has its whole second again after the release.
    expect(moved.map((e) => [e.payload.id, e.payload.heldMs])).toEqual([
      ["before", heldMs],
      ["bobs", heldMs],
      ["during", releasedAt - (during - 1_000)],
    ]);
    for (const e of moved) {
      expect(e.payload.to.getTime()).toBe(e.payload.from.getTime() + e.payload.heldMs);
      expect((await contract(e.payload.id)).deadlineAt).toEqual(e.payload.to);
      expect((await contract(e.payload.id)).status).toBe("ready");
    }
    expect((await contract("during")).deadlineAt!.getTime()).toBe(releasedAt + 1_000);
    expect(moved[0].payload.reason).toBe("its assignee alice was held by a usage limit");

    // The one overdue before the hold began is not given time: it fails now, the others have theirs.
    expect(await failOverdue(hub, SCHEDULER, hub.clock.now())).toEqual(["t/overdue"]);
    hub.clock.advance(1_500);
    expect(await failOverdue(hub, SCHEDULER, hub.clock.now())).toEqual(["t/during"]);
  });

  it("resumes the interrupted held sessions it can, and the hold ends even when one cannot be resumed", async () => {
    for (const name of ["alice", "dave"]) await member(name);
    await hitTheWall();
    await k.send({ name: "dave", message: "later" });
    expect(await k.startTurn("dave")).toBeNull();
    // The hub went down; dave cannot be resumed (here: no conversation id; a discarded work tree is refused alike).
    await k.exit("dave", "interrupted");
    await hub.db.write("test", "test", (tx) => tx.run(sql`UPDATE "Session" SET "claudeSessionId" = NULL WHERE "name" = 'dave'`));

    const mark = hub.events.length;
    expect((await releaseDue(hub, ACCOUNT.account, SUPERVISOR.name, 0)).map((h) => h.name)).toEqual(["alice", "dave"]);
    expect(await hub.db.read((s) => accountLimit(s, ACCOUNT.account))).toBeUndefined();
    expect(hub.events.slice(mark).find(isEvent("account.released"))!.payload).toMatchObject({ how: "reset", sessions: ["alice", "dave"] });
    const dave = await k.status("dave");
    expect(dave).toMatchObject({ status: "interrupted", queued: 1 });
    expect(dave.problem).toBe("not resumed at the five-hour window reset: session 'dave' has no Claude session id to resume");
    expect((await k.status("alice")).problem).toBeNull();
  });
});
