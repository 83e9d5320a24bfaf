import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AskInput, CheckInboxInput, ReplyInput, SendMessageInput } from "../../../lib/api/chat.ts";
import { member, chatKit } from "../../testing/chat-kit.ts";
import { unreadCount } from "./inbox.ts";
import { OPERATOR } from "../principal.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sql } from "../../db/sql.ts";
import type { MessageRow } from "../../db/rows.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { deliver, MAX_MESSAGE_CHARS } from "./messages.ts";
import { sendMessage } from "./send.ts";

let hub: TempHub;
let c: ReturnType<typeof chatKit>;
beforeEach(async () => {
  hub = await tempHub();
  c = chatKit(hub);
  await c.join("api-dev", "qa-dev", "db-dev");
});
afterEach(() => hub.close());

const rows = async () => await hub.db.read((s) => s.all<MessageRow>(sql`SELECT * FROM "Message" ORDER BY "id"`));
const view = (m: { id: number; from: string; unread: boolean }) => [m.id, m.from, m.unread];

describe("direct messages and the inbox", () => {
  it("delivers a DM from the caller, lists unread first then read (newest first in each), and marks what it returned read", async () => {
    const first = await c.send("api-dev", "qa-dev", "schema is ready");
    expect(first).toEqual({ messageId: 1, to: "qa-dev", kind: "dm", sentAt: expect.any(Date) });
    expect(hub.events.at(-1)).toMatchObject({
      type: "message.sent",
      principal: "api-dev",
      payload: { messageId: 1, from: "api-dev", to: "qa-dev", kind: "dm", text: "schema is ready" },
    });
    await c.send("db-dev", "qa-dev", "migration done");

    const check1 = await c.inbox("qa-dev");
    expect(check1.messages.map(view)).toEqual([
      [2, "db-dev", true],
      [1, "api-dev", true],
    ]);
    expect(check1).toMatchObject({ member: "qa-dev", unreadLeft: 0, nextBefore: null });
    expect(hub.events.at(-1)).toMatchObject({ type: "inbox.read", subject: "member:qa-dev", payload: { member: "qa-dev", messageIds: [2, 1], count: 2 } });

    await c.send("api-dev", "qa-dev", "one more thing");
    const check2 = await c.inbox("qa-dev");
    expect(check2.messages.map(view)).toEqual([
      [3, "api-dev", true],
      [2, "db-dev", false],
      [1, "api-dev", false],
    ]);
    expect(check2.messages[0]).toEqual({
      id: 3,
      from: "api-dev",
      kind: "dm",
      text: "one more thing",
      replyTo: null,
      sentAt: expect.any(Date),
      unread: true,
      archived: false,
    });
    expect((await rows()).every((r) => r.readAt !== null)).toBe(true);

    // Only one's own inbox: the other members see nothing of it.
    expect((await c.inbox("db-dev")).messages).toEqual([]);
    expect((await c.inbox("api-dev")).messages).toEqual([]);
  });

  it("counts a member's unread messages without reading them; checking the inbox brings the count to zero", async () => {
    const unread = async (who: string) => (await unreadCount(hub, who === "operator" ? OPERATOR : member(who), { team: "default" })).unread;
    await c.send("api-dev", "qa-dev", "one");
    await c.send("db-dev", "qa-dev", "two");
    await c.send("qa-dev", "operator", "for the operator");
    const before = hub.events.length;
    expect([await unread("qa-dev"), await unread("qa-dev"), await unread("api-dev"), await unread("operator")]).toEqual([2, 2, 0, 1]);
    expect(hub.events.length).toBe(before);
    await c.inbox("qa-dev");
    expect(await unread("qa-dev")).toBe(0);
  });

  it("pages: unreadOnly, limit with unreadLeft, and before/nextBefore through the read messages", async () => {
    for (let i = 1; i <= 6; i++) await c.send("operator", "qa-dev", `m${i}`);
    const a = await c.inbox("qa-dev", { limit: 4 });
    expect(a.messages.map((m) => m.id)).toEqual([6, 5, 4, 3]);
    expect(a).toMatchObject({ unreadLeft: 2, nextBefore: null });
    const b = await c.inbox("qa-dev", { unreadOnly: true });
    expect(b.messages.map((m) => [m.id, m.unread])).toEqual([
      [2, true],
      [1, true],
    ]);
    expect(b).toMatchObject({ unreadLeft: 0, nextBefore: null });
    expect((await c.inbox("qa-dev", { unreadOnly: true })).messages).toEqual([]);

    const p1 = await c.inbox("qa-dev", { limit: 4 });
    expect(p1.messages.map((m) => [m.id, m.unread])).toEqual([
      [6, false],
      [5, false],
      [4, false],
      [3, false],
    ]);
    expect(p1.nextBefore).toBe(3);
    const p2 = await c.inbox("qa-dev", { limit: 4, before: p1.nextBefore });
    expect(p2.messages.map((m) => m.id)).toEqual([2, 1]);
    expect(p2.nextBefore).toBeNull();
  });

  it("lets members write to the operator, and refuses recipients off the roster or the sender itself, writing nothing", async () => {
    expect((await c.send("qa-dev", "operator", "blocked on credentials")).to).toBe("operator");
    expect((await c.inbox("operator")).messages.map((m) => m.text)).toEqual(["blocked on credentials"]);

    const off = await refusedWithoutWriting(hub, () => c.send("api-dev", "qa-dve", "typo"));
    expect(off.code).toBe("not_found");
    expect(off.message).toBe(
      "to: 'qa-dve' is not on the roster of team 'default' (members: api-dev, db-dev, qa-dev); members join with team_update_status (CLI: teamhub team-member <name>), and 'operator' reaches the person at the dashboard",
    );
    expect(off.details).toMatchObject({ field: "to", rule: "on_roster" });
    const self = await refusedWithoutWriting(hub, () => c.send("api-dev", "api-dev", "hi me"));
    expect(issues(self)).toEqual([{ field: "to", rule: "not_self", message: "is you ('api-dev'); a message goes to another member", received: "api-dev" }]);
  });
});

describe("broadcast", () => {
  it("reaches every roster member except the sender, one inbox row each", async () => {
    const r = await c.broadcast("api-dev", "deploying in 5 minutes");
    expect(r).toEqual({ messageIds: [1, 2], recipients: ["db-dev", "qa-dev"], sentAt: expect.any(Date) });
    expect((await rows()).map((m) => [m.sender, m.recipient, m.kind])).toEqual([
      ["api-dev", "db-dev", "broadcast"],
      ["api-dev", "qa-dev", "broadcast"],
    ]);
    // The operator is not on the roster, so everyone gets it.
    expect((await c.broadcast("operator", "standup")).recipients).toEqual(["api-dev", "db-dev", "qa-dev"]);
  });

  it("is refused when nobody else is on the roster", async () => {
    const e = await refusedWithoutWriting(hub, () => c.broadcast("operator", "hello?", "empty-team"));
    expect([e.code, e.message]).toEqual([
      "precondition_failed",
      "nobody but you is on the roster of team 'empty-team'; members join with team_update_status (CLI: teamhub team-member <name>)",
    ]);
  });
});

describe("replies", () => {
  it("go to the original sender with replyTo, and mark the original read", async () => {
    const q = await c.send("api-dev", "qa-dev", "which port?");
    const r = await c.reply("qa-dev", q.messageId, "3001");
    expect(r).toEqual({ messageId: 2, to: "api-dev", kind: "reply", replyTo: 1, sentAt: expect.any(Date) });
    expect((await rows()).map((m) => [m.id, m.sender, m.recipient, m.kind, m.replyTo, m.readAt !== null])).toEqual([
      [1, "api-dev", "qa-dev", "dm", null, true],
      [2, "qa-dev", "api-dev", "reply", 1, false],
    ]);
    expect((await c.inbox("api-dev")).messages[0]).toMatchObject({ from: "qa-dev", kind: "reply", text: "3001", replyTo: 1 });
    // A broadcast is answered privately, to its sender.
    const b = await c.broadcast("db-dev", "anyone using port 5432?");
    expect((await c.reply("api-dev", b.messageIds[0], "not me")).to).toBe("db-dev");
  });

  it("are refused for a message sent to someone else, a missing message, or a notice from a pipeline", async () => {
    const q = await c.send("api-dev", "qa-dev", "for qa only");
    const notMine = await refusedWithoutWriting(hub, () => c.reply("db-dev", q.messageId, "butting in"));
    expect(notMine.code).toBe("forbidden");
    expect(notMine.message).toBe("messageId: message 1 was sent to 'qa-dev', not to you ('db-dev'); you can reply only to messages in your own inbox");
    const missing = await refusedWithoutWriting(hub, () => c.reply("qa-dev", 99, "hello?"));
    expect(missing.code).toBe("not_found");
    expect(missing.message).toBe("messageId: message 99 does not exist in team 'default'");

    const [notice] = await hub.db.write("pipeline.execute", "pipeline:ci", (tx) =>
      deliver(tx, { team: "default", from: "pipeline:ci", to: ["qa-dev"], kind: "notify", text: "tests failed" }),
    );
    const r = await refusedWithoutWriting(hub, () => c.reply("qa-dev", notice, "ok"));
    expect(issues(r)[0]).toMatchObject({
      field: "messageId",
      rule: "answerable",
      message: "message 2 is a notify notice from 'pipeline:ci', which cannot be replied to",
    });
  });
});

describe("identity", () => {
  it("takes the sender from the principal and refuses a 'from' argument", async () => {
    const e = await refusal(c.send("api-dev", "qa-dev", "spoof", { from: "db-dev" }));
    expect(issues(e)).toMatchObject([{ field: "", rule: "unrecognized_keys", message: 'Unrecognized key: "from"' }]);
    await sendMessage(hub, member("api-dev"), { team: "default", to: "qa-dev", message: "hello", ...({ from: "db-dev" } as object) });
    expect((await rows())[0]).toMatchObject({ sender: "api-dev" });
  });
});

describe("bad input names the field", () => {
  it.each([
    ["send", "message", "must not be empty", { to: "qa-dev", message: "" }, SendMessageInput],
    ["send", "message", "must not be empty", { to: "qa-dev", message: "   " }, SendMessageInput],
    ["send", "message", `must be at most ${MAX_MESSAGE_CHARS} characters`, { to: "qa-dev", message: "x".repeat(MAX_MESSAGE_CHARS + 1) }, SendMessageInput],
    ["send", "to", "must be letters, digits, '.', '_' or '-'", { to: "../etc", message: "hi" }, SendMessageInput],
    ["send", "to", "must be a string", { message: "hi" }, SendMessageInput],
    ["reply", "messageId", "must be a message id (1 or more)", { messageId: 0, message: "hi" }, ReplyInput],
    ["reply", "messageId", "must be a number", { messageId: "1", message: "hi" }, ReplyInput],
    ["ask", "timeoutSeconds", "must be at least 1", { to: "qa-dev", question: "q", timeoutSeconds: 0 }, AskInput],
    ["ask", "timeoutSeconds", "must be at most 600", { to: "qa-dev", question: "q", timeoutSeconds: 601 }, AskInput],
    ["ask", "timeoutSeconds", "must be a whole number", { to: "qa-dev", question: "q", timeoutSeconds: 1.5 }, AskInput],
    ["inbox", "limit", "must be at most 500", { limit: 501 }, CheckInboxInput],
    ["inbox", "unreadOnly", "must be true or false", { unreadOnly: "yes" }, CheckInboxInput],
  ] as const)("%s: %s %s", async (_, field, message, input, schema) => {
    const e = await refusal(Promise.resolve().then(() => parseOrThrow(schema, input)));
    expect(e.code).toBe("invalid_input");
    expect(issues(e)[0].field).toBe(field);
    expect(issues(e)[0].message).toContain(message);
  });
});
