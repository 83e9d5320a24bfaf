/**
 * Many rows in few statements (a cascade writes thousands): a multi-row VALUES list of up to ROWS_PER_STATEMENT rows a
 * statement. Used for contract rows, lineage edges and, on SQLite, the event log (./event-append.ts).
 */
import type { Param, Sql } from "./connection.ts";

/** Rows a statement: at most 8 parameters a row stays far below SQLite's 32,766 and PostgreSQL's 65,535 per statement. */
export const ROWS_PER_STATEMENT = 1000;

type Chunk = { values: string; params: Param[] };

/** `rows` a statement's worth at a time: `row` (one row's `?` list) repeated per row, and `before` then the rows' values. */
function chunks(rows: readonly (readonly Param[])[], row: string, before: readonly Param[]): Chunk[] {
  const out: Chunk[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const end = Math.min(rows.length, i + ROWS_PER_STATEMENT);
    const params = [...before];
    for (let r = i; r < end; r++) for (const p of rows[r]) params.push(p);
    const values = new Array<string>(end - i).fill(row).join(",");
    out.push({ values, params });
  }
  return out;
}

/** Runs `statement(values)` once per chunk of rows. */
export async function multiRow(
  sql: Sql,
  rows: readonly (readonly Param[])[],
  row: string,
  statement: (values: string) => string,
  before: readonly Param[] = [],
): Promise<void> {
  for (const c of chunks(rows, row, before)) await sql.run(statement(c.values), c.params);
}

/** `multiRow` for a statement with RETURNING: what the statements return, chunk after chunk. */
export async function multiRowReturning<T>(sql: Sql, rows: readonly (readonly Param[])[], row: string, statement: (values: string) => string): Promise<T[]> {
  const out: T[] = [];
  for (const c of chunks(rows, row, [])) out.push(...(await sql.all<T>(statement(c.values), c.params)));
  return out;
}
