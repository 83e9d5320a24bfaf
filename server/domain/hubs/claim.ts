/**
 * Which hub acts on a session (docs/hubs.md#ownership): the one whose id it carries. An unclaimed session (spawned by a
 * process that runs no sessions, or released by a lost hub) goes to the first hub that claims it in a write; writes
 * are serial, so exactly one does.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { SessionRow } from "../../db/rows.ts";

export async function claimSession(tx: WriteTx, s: SessionRow): Promise<boolean> {
  if (s.hubId !== null) return s.hubId === tx.hub;
  // A process with no hub identity (a test's embedded domain) is the only one there is.
  if (tx.hub === null) return true;
  const r = await tx.run(sql`UPDATE "Session" SET "hubId" = ${tx.hub} WHERE "pk" = ${s.pk} AND "hubId" IS NULL`);
  if (r.changes === 0) return false;
  s.hubId = tx.hub;
  await tx.emit({ teamId: s.teamId, type: "session.claimed", subject: `session:${s.name}`, payload: { name: s.name, hub: tx.hub } });
  return true;
}
