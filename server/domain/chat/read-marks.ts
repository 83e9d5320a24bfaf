/**
 * Read state of a member's own messages. One `inbox.read` event per change, so live views can
 * update unread counts without polling.
 */
import type { WriteTx } from "../../db/database.ts";
import { inList, sql } from "../../db/sql.ts";

/** Marks those of `ids` that are the member's and still unread; returns how many changed. */
export async function markRead(tx: WriteTx, team: string, member: string, ids: number[]): Promise<number> {
  if (ids.length === 0) return 0;
  const r = await tx.run(
    sql`UPDATE "Message" SET "readAt" = ${tx.now} WHERE "teamId" = ${team} AND "recipient" = ${member} AND "readAt" IS NULL AND "id" IN ${inList(ids)}`,
  );
  if (r.changes) await tx.emit({ teamId: team, type: "inbox.read", subject: `member:${member}`, payload: { member, messageIds: ids, count: r.changes } });
  return r.changes;
}
