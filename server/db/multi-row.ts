/**
 * Many rows in few statements (a cascade writes thousands): a multi-row VALUES list of up to ROWS_PER_STATEMENT rows a
 * statement. Used for contract rows, lineage edges and, on SQLite, the event log (./event-append.ts).
 */
import type { Sql } from "./connection.ts";
import { join, type Query } from "./sql.ts";

/** Rows a statement: at most 8 parameters a row stays far below SQLite's 32,766 and PostgreSQL's 65,535 per statement. */
export const ROWS_PER_STATEMENT = 1000;

/** The rows (each a `(…)` fragment), a statement's worth at a time, as one comma-separated fragment each. */
function chunks(rows: readonly Query[]): Query[] {
  const out: Query[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(join(rows.slice(i, i + ROWS_PER_STATEMENT)));
  return out;
}

/** Runs `statement(values)` once per chunk of rows: sql`INSERT … VALUES ${values}` with rows such as sql`(${a},${b})`. */
export async function multiRow(s: Sql, rows: readonly Query[], statement: (values: Query) => Query): Promise<void> {
  for (const values of chunks(rows)) await s.run(statement(values));
}

/** `multiRow` for a statement with RETURNING: what the statements return, chunk after chunk. */
export async function multiRowReturning<T>(s: Sql, rows: readonly Query[], statement: (values: Query) => Query): Promise<T[]> {
  const out: T[] = [];
  for (const values of chunks(rows)) out.push(...(await s.all<T>(statement(values))));
  return out;
}
