import type BetterSqlite3 from "better-sqlite3";

/** The one number a query returns (a count, a sum), read straight from a connection. */
export const scalar = (raw: BetterSqlite3.Database, sql: string, ...params: unknown[]): number =>
  raw
    .prepare(sql)
    .pluck()
    .get(...params) as number;
