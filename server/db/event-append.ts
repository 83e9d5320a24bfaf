/**
 * Appending a transaction's events to the log: once, just before COMMIT, in as few statements as the database takes
 * (a cascade emits thousands). Both adapters call `appendRows` with their own statement for a chunk of rows.
 */
import type { Param, Sql } from "./connection.ts";

/** An event as the log stores it: teamId, type, subject, payload (JSON text), principal, causedBy, depth, at. */
export type EventValues = [string | null, string, string, string, string, number | null, number, Date];

export const EVENT_COLUMNS = `"teamId","type","subject","payload","principal","causedBy","depth","at"`;

/** 8 parameters a row: far below SQLite's 32,766 and PostgreSQL's 65,535 per statement. */
const CHUNK = 1000;

/** `(?,?,?,?,?,?,?,?),…` for n rows. */
export const valuesList = (n: number) => Array.from({ length: n }, () => "(?,?,?,?,?,?,?,?)").join(",");

/**
 * Runs `statement(n, first)` for each chunk of rows (n rows; `first` for the first chunk), each returning the new
 * rows' ids, and gives the ids in the order of `rows`. Both databases number a multi-row VALUES in its order; neither
 * promises RETURNING's order, so the ids are sorted.
 */
export async function appendRows(sql: Sql, rows: readonly EventValues[], statement: (n: number, first: boolean) => string): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    const returned = await sql.all<{ id: number }>(statement(chunk.length, i === 0), chunk.flat() as Param[]);
    ids.push(...returned.map((r) => r.id).sort((a, b) => a - b));
  }
  return ids;
}
