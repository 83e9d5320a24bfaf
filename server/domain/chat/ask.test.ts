import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ReplyInput } from "../../../lib/api/chat.ts";
import { EventBus } from "../../events/bus.ts";
import { startLogFeed } from "../../events/log-feed.ts";
import { chatKit, member } from "../../testing/chat-kit.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { reply } from "./reply.ts";

let hub: TempHub;
let c: ReturnType<typeof chatKit>;
beforeEach(async () => {
  hub = await tempHub();
  c = chatKit(hub);
  await c.join("api-dev", "qa-dev");
});
afterEach(() => hub.close());

/** The newest ask in a member's inbox, as the member would find it by checking. */
function incomingAsk(of: string) {
  return vi.waitFor(
    async () => {
      const ask = (await c.inbox(of)).messages.find((m) => m.kind === "ask");
      if (!ask) throw new Error(`no ask reached ${of}`);
      return ask;
    },
    { timeout: 10_000, interval: 10 },
  );
}

describe("ask", () => {
  it("waits for the reply that another caller sends, and returns it", async () => {
    const started = Date.now();
    const asking = c.ask("api-dev", "qa-dev", "which port does the test server use?", { timeoutSeconds: 30 });
    const question = await incomingAsk("qa-dev");
    expect(question).toMatchObject({ from: "api-dev", kind: "ask", text: "which port does the test server use?", unread: true });
    // An unrelated reply does not end the wait.
    const other = await c.send("api-dev", "qa-dev", "also: ping");
    await c.reply("qa-dev", other.messageId, "pong");
    const answer = await c.reply("qa-dev", question.id, "3001");

    const result = await asking;
    expect(result).toEqual({
      answered: true,
      messageId: question.id,
      to: "qa-dev",
      reply: { from: "qa-dev", text: "3001", messageId: answer.messageId, at: expect.any(Date) },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    // Handed over by the ask, so it is not news in the asker's inbox; the unrelated reply still is.
    expect((await c.inbox("api-dev")).messages.map((m) => [m.text, m.unread])).toEqual([
      ["pong", true],
      ["3001", false],
    ]);
  });

  it("times out with answered: false (not an error), and a late reply still lands in the asker's inbox", async () => {
    const started = Date.now();
    const result = await c.ask("api-dev", "qa-dev", "anyone?", { timeoutSeconds: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(result).toEqual({ answered: false, messageId: 1, to: "qa-dev", timedOut: true, waitedSeconds: 1 });
    await c.reply("qa-dev", 1, "sorry, late");
    expect((await c.inbox("api-dev")).messages).toMatchObject([{ from: "qa-dev", kind: "reply", replyTo: 1, text: "sorry, late", unread: true }]);
  });

  it("hears a reply committed by another process through the event log", async () => {
    const eventLog = await startLogFeed(hub.db, hub.bus, 20);
    const other = hub.connect(new EventBus());
    try {
      const asking = c.ask("api-dev", "qa-dev", "ready?", { timeoutSeconds: 30 });
      const question = await incomingAsk("qa-dev");
      await reply({ db: other, bus: new EventBus() }, member("qa-dev"), ReplyInput.parse({ messageId: question.id, message: "yes" }));
      expect(await asking).toMatchObject({ answered: true, reply: { from: "qa-dev", text: "yes" } });
    } finally {
      await eventLog.stop();
      await other.close();
    }
  });

  it("stops waiting when the caller goes away", async () => {
    const ctl = new AbortController();
    const asking = c.ask("api-dev", "qa-dev", "still there?", { timeoutSeconds: 600 }, ctl.signal);
    await incomingAsk("qa-dev");
    ctl.abort();
    expect(await asking).toMatchObject({ answered: false, timedOut: false });
  });

  it("fails fast, writing nothing, when the question cannot be sent", async () => {
    const started = Date.now();
    const e = await refusedWithoutWriting(hub, () => c.ask("api-dev", "nobody", "hello?", { timeoutSeconds: 600 }));
    expect(e.details).toMatchObject({ field: "to", rule: "on_roster" });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
