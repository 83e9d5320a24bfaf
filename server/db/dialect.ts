/**
 * Which database a statement runs on. The domain's SQL is written once, in what both databases accept (see
 * docs/postgres.md); the few differences live in the adapters (`?` placeholders, the list parameter of ./in-list.ts,
 * how a write takes the database), so domain code never branches on the database. Tests read `name` to inspect
 * each database's catalog.
 */
export type DialectName = "sqlite" | "postgres";

export interface Dialect {
  readonly name: DialectName;
}

export const SQLITE: Dialect = { name: "sqlite" };

export const POSTGRES: Dialect = { name: "postgres" };
