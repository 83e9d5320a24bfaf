/**
 * The inbox archive (docs/domain.md#chat): an inbox keeps its newest `keep` messages live and archives the rest.
 * Nothing is deleted; archived messages stay readable with `includeArchived`. `archivedBy` is
 * left empty, because that column names the team reset whose rollback restores a message, and an
 * overflowing inbox is not undone by a rollback.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { MessageRow } from "../../db/rows.ts";

/** Archives what lies beyond the newest `keep` live messages of one inbox; returns how many. */
export async function archiveOverflow(tx: WriteTx, team: string, recipient: string, keep: number): Promise<number> {
  const newestOverflow = await tx.get<Pick<MessageRow, "id">>(
    sql`SELECT "id" FROM "Message" WHERE "teamId" = ${team} AND "recipient" = ${recipient} AND "archivedAt" IS NULL ORDER BY "id" DESC LIMIT 1 OFFSET ${keep}`,
  );
  if (!newestOverflow) return 0;
  const r = await tx.run(
    sql`UPDATE "Message" SET "archivedAt" = ${tx.now} WHERE "teamId" = ${team} AND "recipient" = ${recipient} AND "archivedAt" IS NULL AND "id" <= ${newestOverflow.id}`,
  );
  await tx.emit({
    teamId: team,
    type: "inbox.archived",
    subject: `member:${recipient}`,
    payload: { member: recipient, archived: r.changes, throughMessageId: newestOverflow.id, keep },
  });
  return r.changes;
}
