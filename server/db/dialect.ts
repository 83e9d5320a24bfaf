/**
 * The SQL the two databases spell differently, behind names. Everything else the domain writes is
 * accepted by both as it stands (see docs/postgres.md); a statement that needs a new difference
 * gets a helper here rather than a branch on the database in domain code.
 */
export type DialectName = "sqlite" | "postgres";

export interface Dialect {
  readonly name: DialectName;
  /**
   * A FROM item: the elements of the JSON array stored at top-level `key` of a JSON text column,
   * one row each, in a text column named "value". `column` is SQL (a quoted name), `key` a literal.
   */
  jsonArray(column: string, key: string): string;
  /** The UTC day (YYYY-MM-DD) of a DateTime column, as text. */
  utcDay(column: string): string;
}

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkedKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`jsonArray: key ${JSON.stringify(key)} is not a plain name`);
  return key;
}

export const SQLITE: Dialect = {
  name: "sqlite",
  jsonArray: (column, key) => `json_each(${column}, '$.${checkedKey(key)}')`,
  // Dates are stored as ISO text in UTC: the first ten characters are the day.
  utcDay: (column) => `substr(${column}, 1, 10)`,
};

export const POSTGRES: Dialect = {
  name: "postgres",
  jsonArray: (column, key) => `jsonb_array_elements_text(COALESCE((${column})::jsonb -> '${checkedKey(key)}', '[]'::jsonb)) AS "j"("value")`,
  // Timestamps hold UTC wall time (see ./postgres.ts).
  utcDay: (column) => `to_char(${column}, 'YYYY-MM-DD')`,
};
