/**
 * Team knowledge in snapshots (docs/knowledge.md#snapshots-and-reset): the live state updates and exploration-cache
 * revisions as pointers (their ids: rows are never changed, so an id is the whole of it). Restoring archives every live
 * row the snapshot does not point to and brings back those it does; nothing is deleted. Wisdom is not part of it.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { IN_LIST, jsonList } from "../../db/in-list.ts";
import type { KnowledgePointers } from "../../../lib/api/snapshots.ts";

const TABLES = { stateUpdates: "StateUpdate", explorations: "Exploration" } as const;

export const NO_KNOWLEDGE: KnowledgePointers = { stateUpdates: [], explorations: [] };

export async function captureKnowledge(sql: Sql, team: string): Promise<KnowledgePointers> {
  const ids = async (table: string) =>
    (await sql.all<{ id: number }>(`SELECT "id" FROM "${table}" WHERE "teamId" = ? AND "archivedAt" IS NULL ORDER BY "id"`, [team])).map((r) => r.id);
  return { stateUpdates: await ids(TABLES.stateUpdates), explorations: await ids(TABLES.explorations) };
}

export async function restoreKnowledge(tx: WriteTx, team: string, target: KnowledgePointers): Promise<void> {
  for (const [key, table] of Object.entries(TABLES) as Array<[keyof KnowledgePointers, string]>) {
    const keep = jsonList(target[key]);
    await tx.run(`UPDATE "${table}" SET "archivedAt" = ? WHERE "teamId" = ? AND "archivedAt" IS NULL AND "id" NOT IN ${IN_LIST}`, [tx.now, team, keep]);
    await tx.run(`UPDATE "${table}" SET "archivedAt" = NULL WHERE "teamId" = ? AND "archivedAt" IS NOT NULL AND "id" IN ${IN_LIST}`, [team, keep]);
  }
}
