/**
 * What domain code sees of the database, whichever one it is: async `all`/`get`/`run` with `?`
 * placeholders, rows shaped like Prisma's generated model types (DateTime columns as Date), and
 * which database it is (./dialect.ts; the adapters spell the few differences, docs/postgres.md#the-adapter-seam).
 * The adapters behind it: ./sqlite.ts (better-sqlite3, the default) and ./postgres.ts (`pg`).
 * We do not use Prisma Client on the hot path: measured at about 25× the raw cost per publish
 * (docs/architecture.md#the-sql-layer); Prisma Client reads what this layer writes (a test checks this).
 */
import type { Dialect } from "./dialect.ts";
import { sql, type Query } from "./sql.ts";

export type Param = string | number | bigint | boolean | null | undefined | Date | Uint8Array;
/** Rows changed; a new row's key comes back with `RETURNING`, which both databases accept. */
export type RunResult = { changes: number };

/** What domain code sees, inside or outside a transaction: statements written with the `sql` template (./sql.ts). */
export interface Sql {
  readonly dialect: Dialect;
  all<T>(query: Query): Promise<T[]>;
  get<T>(query: Query): Promise<T | undefined>;
  run(query: Query): Promise<RunResult>;
}

/**
 * A date as a row holds it: a Date (PostgreSQL, or a DATETIME column SQLite's adapter typed), ISO text (a column
 * SQLite computed, such as MIN over a DATETIME) or epoch milliseconds.
 */
export function fromSqlDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value === "number") return new Date(value);
  const text = String(value);
  // CURRENT_TIMESTAMP defaults have no zone and mean UTC.
  return new Date(/[zZ]|[+-]\d\d:\d\d$/.test(text) ? text : `${text.replace(" ", "T")}Z`);
}

/** How many rows the query `from` returns, for a page's total. */
export async function countOf(s: Sql, from: Query): Promise<number> {
  return (await s.get<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM (${from}) c`))!.n;
}
