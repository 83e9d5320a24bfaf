/**
 * The one transaction shape of every chat send from a principal: the sender is the actor, the
 * team is created on first use (and refused when archived), and a tripped loop guard commits its
 * block before the send is refused.
 */
import type { Database, WriteTx } from "../../db/database.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { LoopTrip } from "./limits.ts";

export async function sendTransaction<T>(db: Database, name: string, actor: Principal, team: string, fn: (tx: WriteTx) => Promise<T>): Promise<T> {
  const outcome = await db.write(name, actor.name, async (tx) => {
    await ensureTeam(tx, team);
    try {
      return { sent: await fn(tx) };
    } catch (e) {
      // The limits run before anything is delivered, so committing here keeps only the block.
      if (e instanceof LoopTrip) return { refused: e.error };
      throw e;
    }
  });
  if ("refused" in outcome) throw outcome.refused;
  return outcome.sent;
}
