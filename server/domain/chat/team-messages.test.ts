import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TeamMessagesInput } from "../../../lib/api/chat.ts";
import { chatKit, member } from "../../testing/chat-kit.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { deliver } from "./messages.ts";
import { teamMessages } from "./team-messages.ts";

let hub: TempHub;
let c: ReturnType<typeof chatKit>;
beforeEach(async () => {
  hub = await tempHub();
  c = chatKit(hub);
  await c.join("api-dev", "qa-dev", "db-dev");
});
afterEach(() => hub.close());

const read = async (input: Record<string, unknown> = {}, actor: Principal = OPERATOR) => teamMessages(hub, actor, parseOrThrow(TeamMessagesInput, input));
/** An ask on the record, without an asker waiting for it (what is left after an ask timed out). */
const askOnRecord = (from: string, to: string, text: string) =>
  hub.db.write("chat.ask", from, async (tx) => (await deliver(tx, { team: "default", from, to: [to], kind: "ask", text }))[0]);
const line = (m: { id: number; from: string; to: string; kind: string; replyId: number | null }) =>
  `${m.id} ${m.kind} ${m.from}→${m.to}${m.replyId ? ` (replied by ${m.replyId})` : ""}`;

describe("the team's conversation", () => {
  it("lists every delivery in the team newest first, with read and reply state, and reading it changes nothing", async () => {
    await c.send("api-dev", "qa-dev", "schema is ready"); // 1
    await c.inbox("qa-dev");
    await c.broadcast("db-dev", "migrating now"); // 2, 3
    await askOnRecord("qa-dev", "api-dev", "which port?"); // 4
    await c.reply("api-dev", 4, "3001"); // 5
    await hub.db.write("pipeline.execute", "pipeline:ci", (tx) =>
      deliver(tx, { team: "default", from: "pipeline:ci", to: ["qa-dev"], kind: "notify", text: "tests failed" }),
    ); // 6
    await c.send("qa-dev", "operator", "blocked on credentials"); // 7
    await hub.db.write("chat.send", "operator", async (tx) => {
      await ensureTeam(tx, "other");
      await deliver(tx, { team: "other", from: "operator", to: ["qa-dev"], kind: "dm", text: "another team" });
    });

    const before = await snapshotTables(hub);
    const published = hub.events.length;
    const r = await read();
    expect(await snapshotTables(hub)).toEqual(before);
    expect(hub.events.length).toBe(published);

    expect(r.messages.map(line)).toEqual([
      "7 dm qa-dev→operator",
      "6 notify pipeline:ci→qa-dev",
      "5 reply api-dev→qa-dev",
      "4 ask qa-dev→api-dev (replied by 5)",
      "3 broadcast db-dev→qa-dev",
      "2 broadcast db-dev→api-dev",
      "1 dm api-dev→qa-dev",
    ]);
    expect(r.nextBefore).toBeNull();
    expect(r.messages[6]).toEqual({
      id: 1,
      from: "api-dev",
      to: "qa-dev",
      kind: "dm",
      text: "schema is ready",
      replyTo: null,
      sentAt: expect.any(Date),
      readAt: expect.any(Date),
      archived: false,
      replyId: null,
    });
    expect(r.messages[2]).toMatchObject({ replyTo: 4, readAt: null });
    // Replying marked the ask read for its recipient; the operator's own DM is still unread for the operator.
    expect(r.messages[3].readAt).toEqual(expect.any(Date));
    expect(r.messages[0].readAt).toBeNull();
  });

  it("filters by member (sent or received), by kind, and to the asks nobody has answered", async () => {
    await c.send("api-dev", "qa-dev", "hi"); // 1
    await c.send("db-dev", "api-dev", "hello"); // 2
    await askOnRecord("qa-dev", "db-dev", "ready?"); // 3
    await askOnRecord("api-dev", "qa-dev", "port?"); // 4
    await c.reply("qa-dev", 4, "3001"); // 5
    await askOnRecord("operator", "api-dev", "status?"); // 6

    expect((await read({ member: "db-dev" })).messages.map((m) => m.id)).toEqual([3, 2]);
    expect((await read({ kind: "ask" })).messages.map((m) => m.id)).toEqual([6, 4, 3]);
    expect((await read({ awaitingReply: true })).messages.map(line)).toEqual(["6 ask operator→api-dev", "3 ask qa-dev→db-dev"]);
    expect((await read({ awaitingReply: true, member: "qa-dev" })).messages.map((m) => m.id)).toEqual([3]);
    expect((await read({ kind: "dm", member: "qa-dev" })).messages.map((m) => m.id)).toEqual([1]);
    expect((await read({ member: "nobody" })).messages).toEqual([]);
  });

  it("pages back with before/nextBefore", async () => {
    for (let i = 1; i <= 5; i++) await c.send("operator", "qa-dev", `m${i}`);
    const p1 = await read({ limit: 2 });
    expect(p1.messages.map((m) => m.id)).toEqual([5, 4]);
    expect(p1.nextBefore).toBe(4);
    const p2 = await read({ limit: 2, before: p1.nextBefore });
    expect(p2.messages.map((m) => m.id)).toEqual([3, 2]);
    const p3 = await read({ limit: 2, before: p2.nextBefore });
    expect(p3).toEqual({ messages: [expect.objectContaining({ id: 1 })], nextBefore: null });
  });

  it("is for operators only: a member is refused and nothing is written", async () => {
    await c.send("api-dev", "qa-dev", "private");
    const e = await refusedWithoutWriting(hub, () => read({}, member("qa-dev")));
    expect(e.code).toBe("forbidden");
    expect(e.message).toBe("'qa-dev' (member) may not read the whole conversation of the team: only a lead of team 'default' or the operator may");
    expect((await read({}, { name: "scheduler", kind: "system" })).messages).toHaveLength(1);
  });

  it("refuses bad filters, naming the field and the rule", async () => {
    expect(issues(await refusal(read({ kind: "gossip" })))).toEqual([
      { field: "kind", rule: "invalid_value", message: "must be one of dm, broadcast, ask, reply, notify, turn, contract, system", received: "gossip" },
    ]);
    expect(issues(await refusal(read({ limit: 0 })))[0]).toMatchObject({ field: "limit", message: "must be at least 1" });
    expect(issues(await refusal(read({ before: 0 })))[0]).toMatchObject({ field: "before", message: "must be a message id (1 or more)" });
    expect(issues(await refusal(read({ member: "no spaces" })))[0]).toMatchObject({ field: "member" });
    expect(issues(await refusal(read({ from: "qa-dev" })))[0]).toMatchObject({ field: "", rule: "unrecognized_keys", message: 'Unrecognized key: "from"' });
  });
});
