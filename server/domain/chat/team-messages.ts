/**
 * The team's whole conversation (docs/domain.md#chat), for the person at the dashboard:
 * every delivery in the team (dms, broadcasts, asks, replies and the hub's own notices), newest
 * first, with whether each was read and answered. Only operators (and the hub's machinery) may
 * read it; a member sees its own inbox and nothing else. It is a plain read: looking at the
 * conversation marks nothing read and emits nothing, so the recipients' unread state is theirs.
 */
import type { MessageKind, TeamMessages, TeamMessagesInput } from "../../../lib/api/chat.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";

type Row = {
  id: number;
  sender: string;
  recipient: string;
  kind: MessageKind;
  text: string;
  replyTo: number | null;
  createdAt: Date;
  readAt: Date | null;
  archivedAt: Date | null;
  replyId: number | null;
};

/**
 * A reply always goes to the original's sender and comes after it (reply.ts), so looking for it
 * among the messages to that sender after that id stays on the (teamId, recipient, id) index.
 */
const FIRST_REPLY = `(SELECT MIN(r."id") FROM "Message" r WHERE r."teamId" = m."teamId" AND r."recipient" = m."sender" AND r."id" > m."id" AND r."replyTo" = m."id")`;

export async function teamMessages({ db }: DomainDeps, actor: Principal, input: TeamMessagesInput): Promise<TeamMessages> {
  const where = [`m."teamId" = ?`];
  const params: Array<string | number> = [input.team];
  if (input.member) {
    where.push(`(m."sender" = ? OR m."recipient" = ?)`);
    params.push(input.member, input.member);
  }
  if (input.kind) {
    where.push(`m."kind" = ?`);
    params.push(input.kind);
  }
  if (input.awaitingReply) where.push(`m."kind" = 'ask' AND ${FIRST_REPLY} IS NULL`);
  if (input.before !== undefined) {
    where.push(`m."id" < ?`);
    params.push(input.before);
  }
  const rows = await db.read(async (sql) => {
    await authorize(sql, actor, "chat.team_messages", { team: input.team });
    return sql.all<Row>(
      `SELECT m."id", m."sender", m."recipient", m."kind", m."text", m."replyTo", m."createdAt", m."readAt", m."archivedAt", ${FIRST_REPLY} AS "replyId"
       FROM "Message" m WHERE ${where.join(" AND ")} ORDER BY m."id" DESC LIMIT ?`,
      // One row past the page tells whether older messages remain.
      [...params, input.limit + 1],
    );
  });
  const page = rows.slice(0, input.limit);
  return {
    messages: page.map((m) => ({
      id: m.id,
      from: m.sender,
      to: m.recipient,
      kind: m.kind,
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
