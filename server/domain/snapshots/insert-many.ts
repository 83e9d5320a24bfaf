/**
 * Bulk inserts for restores of tens of thousands of rows: multi-row INSERT statements of a
 * fixed size, the remainder one row at a time, so the statement cache holds two shapes per
 * table instead of one per remainder length.
 */
import type { Param } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";

const ROWS_PER_STATEMENT = 100;

/** `skipExisting`: rows that would break a unique key are left out (ON CONFLICT DO NOTHING). */
export async function insertMany(tx: WriteTx, table: string, columns: readonly string[], rows: Param[][], skipExisting = false): Promise<void> {
  const head = `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(",")}) VALUES `;
  const tail = skipExisting ? " ON CONFLICT DO NOTHING" : "";
  const tuple = `(${columns.map(() => "?").join(",")})`;
  const full = head + Array.from({ length: ROWS_PER_STATEMENT }, () => tuple).join(",") + tail;
  let i = 0;
  for (; i + ROWS_PER_STATEMENT <= rows.length; i += ROWS_PER_STATEMENT) await tx.run(full, rows.slice(i, i + ROWS_PER_STATEMENT).flat());
  for (; i < rows.length; i++) await tx.run(head + tuple + tail, rows[i]);
}
