/**
 * The team's whole conversation (docs/domain.md#chat), for the person at the dashboard:
 * every delivery in the team (dms, broadcasts, asks, replies and the hub's own notices), newest
 * first, with whether each was read and answered. Only operators (and the hub's machinery) may
 * read it; a member sees its own inbox and nothing else. It is a plain read: looking at the
 * conversation marks nothing read and emits nothing, so the recipients' unread state is theirs.
 */
import { join, raw, sql } from "../../db/sql.ts";
import type { MessageRow } from "../../db/rows.ts";
import { MessageKind, type TeamMessages, type TeamMessagesInput } from "../../../lib/api/chat.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";

type Row = Pick<MessageRow, "id" | "sender" | "recipient" | "kind" | "text" | "replyTo" | "createdAt" | "readAt" | "archivedAt"> & { replyId: number | null };

/**
 * A reply always goes to the original's sender and comes after it (reply.ts), so looking for it
 * among the messages to that sender after that id stays on the (teamId, recipient, id) index.
 */
const FIRST_REPLY = raw(
  `(SELECT MIN(r."id") FROM "Message" r WHERE r."teamId" = m."teamId" AND r."recipient" = m."sender" AND r."id" > m."id" AND r."replyTo" = m."id")`,
);

export async function teamMessages({ db }: DomainDeps, actor: Principal, input: TeamMessagesInput): Promise<TeamMessages> {
  const where = [sql`m."teamId" = ${input.team}`];
  if (input.member) where.push(sql`(m."sender" = ${input.member} OR m."recipient" = ${input.member})`);
  if (input.kind) where.push(sql`m."kind" = ${input.kind}`);
  if (input.awaitingReply) where.push(sql`m."kind" = 'ask' AND ${FIRST_REPLY} IS NULL`);
  if (input.before !== undefined) where.push(sql`m."id" < ${input.before}`);
  const rows = await db.read(async (s) => {
    await authorize(s, actor, "chat.team_messages", { team: input.team });
    return s.all<Row>(
      // One row past the page tells whether older messages remain.
      sql`SELECT m."id", m."sender", m."recipient", m."kind", m."text", m."replyTo", m."createdAt", m."readAt", m."archivedAt", ${FIRST_REPLY} AS "replyId"
       FROM "Message" m WHERE ${join(where, " AND ")} ORDER BY m."id" DESC LIMIT ${input.limit + 1}`,
    );
  });
  const page = rows.slice(0, input.limit);
  return {
    messages: page.map((m) => ({
      id: m.id,
      from: m.sender,
      to: m.recipient,
      kind: MessageKind.parse(m.kind),
      text: m.text,
      replyTo: m.replyTo,
      sentAt: m.createdAt,
      readAt: m.readAt,
      archived: m.archivedAt !== null,
      replyId: m.replyId,
    })),
    nextBefore: rows.length > input.limit ? page[page.length - 1].id : null,
  };
}
