/**
 * Many rows in few statements (a cascade writes thousands): one statement per ROWS_PER_STATEMENT rows, each a multi-row VALUES
 * list. Used for the event log (./event-append.ts), contract rows and lineage edges.
 */
import type { Param, Sql } from "./connection.ts";

/** Rows a statement: at most 8 parameters a row stays far below SQLite's 32,766 and PostgreSQL's 65,535 per statement. */
export const ROWS_PER_STATEMENT = 1000;

type Chunk = { values: string; params: Param[]; first: boolean };

/** The chunks of `rows`: `values` is `row` (one row's placeholders) once per row, `params` are `before` then the rows'. */
function* chunks(rows: readonly (readonly Param[])[], row: string, before: readonly Param[]): Generator<Chunk> {
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const part = rows.slice(i, i + ROWS_PER_STATEMENT);
    yield { values: part.map(() => row).join(","), params: [...before, ...part.flat()], first: i === 0 };
  }
}

/** Runs `statement(values, first)` once per chunk of rows (`first`: the first chunk). */
export async function multiRow(
  sql: Sql,
  rows: readonly (readonly Param[])[],
  row: string,
  statement: (values: string, first: boolean) => string,
  before: readonly Param[] = [],
): Promise<void> {
  for (const c of chunks(rows, row, before)) await sql.run(statement(c.values, c.first), c.params);
}

/** `multiRow` for a statement with RETURNING: what the statements return, chunk after chunk. */
export async function multiRowReturning<T>(
  sql: Sql,
  rows: readonly (readonly Param[])[],
  row: string,
  statement: (values: string, first: boolean) => string,
): Promise<T[]> {
  const out: T[] = [];
  for (const c of chunks(rows, row, [])) out.push(...(await sql.all<T>(statement(c.values, c.first), c.params)));
  return out;
}
