/**
 * Replies (docs/domain.md#ask-and-reply): only to a message in the caller's own inbox, and always to that message's
 * sender, so a reply can neither be sent for someone else nor be steered to a third member.
 * Replying also marks the original read. Notices from the hub (pipeline notifications, turns,
 * contract notices, system messages) have no one waiting for an answer, so they cannot be replied to.
 */
import { sql } from "../../db/sql.ts";
import type { MessageRow } from "../../db/rows.ts";
import { DomainError, forbidden, invalidField } from "../../errors.ts";
import type { Replied, ReplyInput } from "../../../lib/api/chat.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { enforceChatLimits } from "./limits.ts";
import { deliver } from "./messages.ts";
import { markRead } from "./read-marks.ts";
import { sendTransaction } from "./send-transaction.ts";

const ANSWERABLE = ["dm", "broadcast", "ask", "reply"];

export async function reply({ db }: DomainDeps, actor: Principal, input: ReplyInput): Promise<Replied> {
  return sendTransaction(db, "chat.reply", actor, input.team, async (tx) => {
    const original = await tx.get<Pick<MessageRow, "sender" | "recipient" | "kind">>(
      sql`SELECT "sender","recipient","kind" FROM "Message" WHERE "teamId" = ${input.team} AND "id" = ${input.messageId}`,
    );
    if (!original)
      throw new DomainError("not_found", `messageId: message ${input.messageId} does not exist in team '${input.team}'`, {
        what: "message",
        id: input.messageId,
        field: "messageId",
        rule: "exists",
      });
    if (original.recipient !== actor.name) {
      throw forbidden(
        `messageId: message ${input.messageId} was sent to '${original.recipient}', not to you ('${actor.name}'); you can reply only to messages in your own inbox`,
        {
          field: "messageId",
          rule: "own_inbox",
        },
      );
    }
    if (!ANSWERABLE.includes(original.kind)) {
      throw invalidField(
        "messageId",
        "answerable",
        `message ${input.messageId} is a ${original.kind} notice from '${original.sender}', which cannot be replied to`,
        input.messageId,
      );
    }
    await enforceChatLimits(tx, actor, input.team, original.sender);
    const [messageId] = await deliver(tx, {
      team: input.team,
      from: actor.name,
      to: [original.sender],
      kind: "reply",
      text: input.message,
      replyTo: input.messageId,
    });
    await markRead(tx, input.team, actor.name, [input.messageId]);
    return { messageId, to: original.sender, kind: "reply" as const, replyTo: input.messageId, sentAt: tx.now };
  });
}
