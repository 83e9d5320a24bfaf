import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatKit } from "../../testing/chat-kit.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { sql } from "../../db/sql.ts";
import type { ChatBlockRow } from "../../db/rows.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { deliver } from "./messages.ts";

let hub: TempHub;
let c: ReturnType<typeof chatKit>;
beforeEach(async () => {
  hub = await tempHub();
  c = chatKit(hub);
  await c.join("api-dev", "qa-dev", "db-dev", "ui-dev");
});
afterEach(() => hub.close());

const blocks = async () => await hub.db.read((s) => s.all<ChatBlockRow>(sql`SELECT * FROM "ChatBlock"`));

describe("rate limit", () => {
  it("refuses the send beyond the per-minute limit with the limit and when to retry, writing nothing", async () => {
    await c.settings({ chatRateLimitPerMinute: 3 });
    await c.send("api-dev", "qa-dev", "1");
    await c.send("api-dev", "db-dev", "2");
    await c.send("api-dev", "ui-dev", "3");
    const e = await refusedWithoutWriting(hub, () => c.send("api-dev", "qa-dev", "4"));
    expect(e.code).toBe("rate_limited");
    expect(e.status).toBe(429);
    expect(e.message).toMatch(
      /^rate limit: 'api-dev' sent 3 messages in the last minute, and the limit is 3 per minute \(team setting chatRateLimitPerMinute\); retry after \d{4}-\d\d-\d\dT[\d:.]+Z \(in (60|59) s\)$/,
    );
    expect(e.details).toMatchObject({ rule: "rate_limit", sender: "api-dev", limit: 3, sent: 3, retryAfterSeconds: expect.any(Number) });
    // Per sender: the others are unaffected, and so is the operator.
    await c.send("qa-dev", "api-dev", "fine");
    for (let i = 0; i < 10; i++) await c.send("operator", "api-dev", `operator ${i}`);
  });

  it("counts a broadcast once, however many inboxes it reaches; replies and asks count too", async () => {
    await c.settings({ chatRateLimitPerMinute: 3 });
    await c.broadcast("api-dev", "to everyone");
    await c.broadcast("api-dev", "to everyone, again");
    const q = await c.send("qa-dev", "api-dev", "question");
    await c.reply("api-dev", q.messageId, "answer");
    const e = await refusedWithoutWriting(hub, () => c.ask("api-dev", "qa-dev", "one more?", { timeoutSeconds: 1 }));
    expect(e.details).toMatchObject({ rule: "rate_limit", sent: 3 });
  });

  it("does not apply to the hub's own deliveries (pipelines have their own limits)", async () => {
    await c.settings({ chatRateLimitPerMinute: 1 });
    for (let i = 0; i < 5; i++) {
      await hub.db.write("pipeline.execute", "pipeline:p", (tx) =>
        deliver(tx, { team: "default", from: "pipeline:p", to: ["qa-dev"], kind: "notify", text: `n${i}` }),
      );
    }
    expect((await c.inbox("qa-dev")).messages).toHaveLength(5);
  });
});

describe("loop guard", () => {
  beforeEach(() => c.settings({ chatRateLimitPerMinute: 100, chatLoopMaxExchanges: 3, chatLoopWindowSeconds: 1 }));

  it("blocks a pair that exchanges too much, names both and until when, and lifts the block when it expires", async () => {
    await c.send("api-dev", "qa-dev", "1");
    await c.send("qa-dev", "api-dev", "2");
    await c.send("api-dev", "qa-dev", "3");
    const messagesBefore = await hub.db.read((s) => s.all(sql`SELECT * FROM "Message"`));

    const trip = await c.send("qa-dev", "api-dev", "4").catch((e: Error) => e);
    expect(trip).toMatchObject({ code: "rate_limited", details: { rule: "loop_guard", members: ["api-dev", "qa-dev"], until: expect.any(Date) } });
    expect((trip as Error).message).toMatch(
      /^loop guard: 'api-dev' and 'qa-dev' exchanged 3 messages within 1 s, so the pair is now blocked until \S+Z \(in 1 s\); at most 3 direct messages per 1 s/,
    );
    // The refused message is not delivered, but the block is committed, with its event.
    expect(await hub.db.read((s) => s.all(sql`SELECT * FROM "Message"`))).toEqual(messagesBefore);
    expect(await blocks()).toMatchObject([{ a: "api-dev", b: "qa-dev" }]);
    expect(hub.events.at(-1)).toMatchObject({
      type: "chat.pair_blocked",
      subject: "pair:api-dev|qa-dev",
      payload: { members: ["api-dev", "qa-dev"], exchanges: 3, windowSeconds: 1 },
    });

    // Either direction, any direct kind, refused while blocked, and nothing more is written.
    const blocked = await refusedWithoutWriting(hub, () => c.reply("api-dev", 2, "5"));
    expect(blocked.message).toMatch(/^loop guard: 'api-dev' and 'qa-dev' are blocked until/);
    // Other pairs, and broadcasts, are unaffected.
    await c.send("api-dev", "db-dev", "hello");
    await c.broadcast("qa-dev", "status");

    hub.clock.advance(1_100);
    expect((await c.send("qa-dev", "api-dev", "after the block")).to).toBe("api-dev");
  });

  it("leaves conversations with the operator alone", async () => {
    for (let i = 0; i < 4; i++) {
      await c.send("operator", "qa-dev", `q${i}`);
      await c.send("qa-dev", "operator", `a${i}`);
    }
    expect(await blocks()).toEqual([]);
  });
});
