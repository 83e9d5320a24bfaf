/**
 * Delivering messages into inboxes (docs/domain.md#chat). Each recipient gets its own row, so read state and the
 * inbox archive work per member; each delivery is a `message.sent` event, which is what the
 * `message_received` pipeline trigger, a waiting `ask` and session wake-ups listen to.
 * Every delivery, whoever makes it (chat, pipelines, contract notices), goes through `deliver`,
 * so every inbox is kept to the team's live limit.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { MessageRow } from "../../db/rows.ts";
import { invalidField } from "../../errors.ts";
import { MAX_MESSAGE_CHARS, type MessageKind } from "../../../lib/api/chat.ts";
import { teamSettings } from "../teams/settings.ts";
import { archiveOverflow } from "./inbox-archive.ts";

export { MAX_MESSAGE_CHARS, type MessageKind };

export type Delivery = {
  team: string;
  from: string;
  to: string[];
  kind: MessageKind;
  text: string;
  replyTo?: number | null;
  /** Contract notices: whether it gives the recipient something to do, which wakes a live member (other kinds wake by kind). */
  actionable?: boolean;
};

export async function deliver(tx: WriteTx, d: Delivery): Promise<number[]> {
  if (d.text.length > MAX_MESSAGE_CHARS) throw invalidField("message", "max_length", `must be at most ${MAX_MESSAGE_CHARS} characters (got ${d.text.length})`);
  if (d.to.length === 0) {
    // Nobody to deliver to (an empty roster): still on the record.
    await tx.emit({
      teamId: d.team,
      type: "message.sent",
      subject: `message:${d.kind}`,
      payload: { messageId: null, from: d.from, to: null, kind: d.kind, text: d.text, replyTo: d.replyTo ?? null },
    });
    return [];
  }
  const ids: number[] = [];
  for (const to of d.to) {
    const { id } = (await tx.get<Pick<MessageRow, "id">>(
      sql`INSERT INTO "Message" ("teamId","sender","recipient","kind","text","replyTo","createdAt") VALUES (${d.team},${d.from},${to},${d.kind},${d.text},${d.replyTo ?? null},${tx.now}) RETURNING "id"`,
    ))!;
    ids.push(id);
    await tx.emit({
      teamId: d.team,
      type: "message.sent",
      subject: `message:${id}`,
      payload: {
        messageId: id,
        from: d.from,
        to,
        kind: d.kind,
        text: d.text,
        replyTo: d.replyTo ?? null,
        ...(d.actionable === undefined ? {} : { actionable: d.actionable }),
      },
    });
  }
  const { inboxLiveLimit } = await teamSettings(tx, d.team);
  for (const to of new Set(d.to)) await archiveOverflow(tx, d.team, to, inboxLiveLimit);
  return ids;
}

type InboxMessage = Pick<MessageRow, "id" | "sender" | "recipient" | "kind" | "text" | "replyTo" | "createdAt" | "readAt">;

/** A member's live (not archived) messages, newest first. */
export async function inboxOf(s: Sql, team: string, member: string, limit = 100): Promise<InboxMessage[]> {
  return s.all<InboxMessage>(
    sql`SELECT "id","sender","recipient","kind","text","replyTo","createdAt","readAt" FROM "Message"
     WHERE "teamId" = ${team} AND "recipient" = ${member} AND "archivedAt" IS NULL ORDER BY "id" DESC LIMIT ${limit}`,
  );
}
