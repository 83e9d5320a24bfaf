/**
 * Appending a transaction's events to the log: once, just before COMMIT, in as few statements as the database takes.
 * Both adapters call `appendRows` with their own statement.
 */
import type { Sql } from "./connection.ts";
import { multiRowReturning } from "./multi-row.ts";

/** An event as the log stores it: teamId, type, subject, payload (JSON text), principal, causedBy, depth, at. */
export type EventValues = [string | null, string, string, string, string, number | null, number, Date];

export const EVENT_COLUMNS = `"teamId","type","subject","payload","principal","causedBy","depth","at"`;

/**
 * Runs `statement(values, first)` (`values`: the chunk's VALUES list) for each chunk of rows, each returning the new
 * rows' ids, and gives the ids in the order of `rows`. Both databases number a multi-row VALUES in its order, one
 * statement after another; neither promises RETURNING's order, so the ids are sorted.
 */
export async function appendRows(sql: Sql, rows: readonly EventValues[], statement: (values: string, first: boolean) => string): Promise<number[]> {
  const ids = await multiRowReturning<{ id: number }>(sql, rows, "(?,?,?,?,?,?,?,?)", statement);
  return ids.map((r) => r.id).sort((a, b) => a - b);
}
