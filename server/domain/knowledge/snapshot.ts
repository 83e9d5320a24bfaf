/**
 * Team knowledge in snapshots (docs/knowledge.md#snapshots-and-reset): the live state updates and exploration-cache
 * revisions as pointers (their ids: rows are never changed, so an id is the whole of it). Restoring archives every live
 * row the snapshot does not point to and brings back those it does; nothing is deleted. Wisdom is not part of it.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { inList, raw, sql, type Query } from "../../db/sql.ts";
import type { ExplorationRow, StateUpdateRow } from "../../db/rows.ts";
import type { KnowledgePointers } from "../../../lib/api/snapshots.ts";

const TABLES = { stateUpdates: raw(`"StateUpdate"`), explorations: raw(`"Exploration"`) };

export const NO_KNOWLEDGE: KnowledgePointers = { stateUpdates: [], explorations: [] };

export async function captureKnowledge(s: Sql, team: string): Promise<KnowledgePointers> {
  const ids = async (table: Query) =>
    (
      await s.all<Pick<StateUpdateRow | ExplorationRow, "id">>(sql`SELECT "id" FROM ${table} WHERE "teamId" = ${team} AND "archivedAt" IS NULL ORDER BY "id"`)
    ).map((r) => r.id);
  return { stateUpdates: await ids(TABLES.stateUpdates), explorations: await ids(TABLES.explorations) };
}

export async function restoreKnowledge(tx: WriteTx, team: string, target: KnowledgePointers): Promise<void> {
  for (const [key, table] of Object.entries(TABLES) as Array<[keyof KnowledgePointers, Query]>) {
    const keep = inList(target[key]);
    await tx.run(sql`UPDATE ${table} SET "archivedAt" = ${tx.now} WHERE "teamId" = ${team} AND "archivedAt" IS NULL AND "id" NOT IN ${keep}`);
    await tx.run(sql`UPDATE ${table} SET "archivedAt" = NULL WHERE "teamId" = ${team} AND "archivedAt" IS NOT NULL AND "id" IN ${keep}`);
  }
}
