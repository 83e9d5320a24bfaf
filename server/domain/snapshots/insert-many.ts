/**
 * Bulk inserts for restores of tens of thousands of rows: multi-row INSERT statements of a
 * fixed size, the remainder one row at a time, so the statement cache holds two shapes per
 * table instead of one per remainder length.
 */
import type { Param } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, join, raw, sql, type Query, values } from "../../db/sql.ts";

const ROWS_PER_STATEMENT = 100;

const tuple = (row: Param[]): Query => sql`(${values(row)})`;

/** `skipExisting`: rows that would break a unique key are left out (ON CONFLICT DO NOTHING). `table` and `columns` are the code's own names. */
export async function insertMany(tx: WriteTx, table: string, columns: readonly string[], rows: Param[][], skipExisting = false): Promise<void> {
  const into = raw(`"${table}" (${columns.map((c) => `"${c}"`).join(",")})`);
  const tail = skipExisting ? raw(" ON CONFLICT DO NOTHING") : EMPTY;
  const insert = (values: Query) => sql`INSERT INTO ${into} VALUES ${values}${tail}`;
  let i = 0;
  for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) await tx.run(insert(join(rows.slice(i, i + ROWS_PER_STATEMENT).map(tuple), ",")));
  for (; i < rows.length; i++) await tx.run(insert(tuple(rows[i])));
}
