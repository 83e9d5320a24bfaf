/**
 * What the chat operations return is what their endpoints describe (lib/api/chat.ts): every
 * response, sent as JSON and parsed by its schema, comes back equal.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api } from "../../../lib/api/endpoints/index.ts";
import { chatKit } from "../../testing/chat-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { crossesUnchanged as same } from "../../testing/wire.ts";
import { OPERATOR } from "../principal.ts";
import { teamMessages } from "./team-messages.ts";

let hub: TempHub;
let c: ReturnType<typeof chatKit>;
beforeEach(async () => {
  hub = await tempHub();
  c = chatKit(hub);
  await c.join("api-dev", "qa-dev");
});
afterEach(() => hub.close());

describe("chat responses", () => {
  it("send, broadcast, reply, ask answered and unanswered, inbox and the team's messages", async () => {
    const dm = await same(api.chat.send, c.send("api-dev", "qa-dev", "schema is ready"));
    await same(api.chat.broadcast, c.broadcast("qa-dev", "tests green"));
    const question = c.ask("api-dev", "qa-dev", "which port?", { timeoutSeconds: 5 });
    const asked = (await c.inbox("qa-dev")).messages.find((m) => m.kind === "ask")!;
    await same(api.chat.reply, c.reply("qa-dev", asked.id, "3000"));
    expect(await same(api.chat.ask, question)).toMatchObject({ answered: true, reply: { text: "3000" } });
    expect(await same(api.chat.ask, c.ask("api-dev", "qa-dev", "still there?", { timeoutSeconds: 1 }))).toMatchObject({ answered: false });
    await same(api.chat.inbox, c.inbox("qa-dev", { includeArchived: true }));
    const all = await same(api.chat.messages, teamMessages(hub, OPERATOR, { team: "default", awaitingReply: false, limit: 100 }));
    expect(all).toMatchObject({ messages: expect.arrayContaining([expect.objectContaining({ id: dm.messageId })]) });
  });
});
