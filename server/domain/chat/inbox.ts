/**
 * Checking one's inbox (docs/domain.md#chat): the caller's messages, unread first and then read, newest first
 * within each, and the unread ones returned are marked read in the same transaction (so two
 * concurrent checks never both report a message as new). Only the caller's own inbox: there is
 * no argument to read someone else's.
 *
 * Paging: `before` continues below a message id. `nextBefore` is set when older read messages
 * remain, which only happens once every unread message in scope has been returned.
 */
import { MessageKind, type CheckInboxInput, type Inbox, type InboxItem, type UnreadCount, type UnreadInput } from "../../../lib/api/chat.ts";
import type { MessageRow } from "../../db/rows.ts";
import { join, raw, sql } from "../../db/sql.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { markRead } from "./read-marks.ts";

type Row = Pick<MessageRow, "id" | "sender" | "kind" | "text" | "replyTo" | "createdAt" | "archivedAt">;

const COLUMNS = raw(`"id","sender","kind","text","replyTo","createdAt","archivedAt"`);

export async function checkInbox({ db }: DomainDeps, actor: Principal, input: CheckInboxInput): Promise<Inbox> {
  return db.write("chat.inbox", actor.name, async (tx) => {
    const conds = [sql`"teamId" = ${input.team} AND "recipient" = ${actor.name}`];
    if (!input.includeArchived) conds.push(sql`"archivedAt" IS NULL`);
    if (input.before !== undefined) conds.push(sql`"id" < ${input.before}`);
    const scope = join(conds, " AND ");
    const unread = await tx.all<Row>(sql`SELECT ${COLUMNS} FROM "Message" WHERE ${scope} AND "readAt" IS NULL ORDER BY "id" DESC LIMIT ${input.limit}`);
    const room = input.unreadOnly ? 0 : input.limit - unread.length;
    // One row past the page tells whether older messages remain.
    const read =
      room > 0 ? await tx.all<Row>(sql`SELECT ${COLUMNS} FROM "Message" WHERE ${scope} AND "readAt" IS NOT NULL ORDER BY "id" DESC LIMIT ${room + 1}`) : [];
    const { n: unreadInScope } = (await tx.get<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM "Message" WHERE ${scope} AND "readAt" IS NULL`))!;
    await markRead(
      tx,
      input.team,
      actor.name,
      unread.map((m) => m.id),
    );
    const item = (m: Row, wasUnread: boolean): InboxItem => ({
      id: m.id,
      from: m.sender,
      kind: MessageKind.parse(m.kind),
      text: m.text,
      replyTo: m.replyTo,
      sentAt: m.createdAt,
      unread: wasUnread,
      archived: m.archivedAt !== null,
    });
    const shown = read.slice(0, room);
    return {
      member: actor.name,
      messages: [...unread.map((m) => item(m, true)), ...shown.map((m) => item(m, false))],
      unreadLeft: unreadInScope - unread.length,
      nextBefore: read.length > room ? shown[shown.length - 1].id : null,
    };
  });
}

/** The caller's unread messages in the team, counted without reading them (the dashboard's Inbox badge). */
export async function unreadCount({ db }: DomainDeps, actor: Principal, input: UnreadInput): Promise<UnreadCount> {
  const row = await db.read((s) =>
    s.get<{ n: number }>(
      sql`SELECT COUNT(*) AS "n" FROM "Message" WHERE "teamId" = ${input.team} AND "recipient" = ${actor.name} AND "archivedAt" IS NULL AND "readAt" IS NULL`,
    ),
  );
  return { member: actor.name, unread: row!.n };
}
