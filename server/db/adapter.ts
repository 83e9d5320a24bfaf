/**
 * One database behind the hub's Database (./database.ts): the SQLite adapter (./sqlite.ts) or the
 * PostgreSQL one (./postgres.ts), chosen by DATABASE_URL (./open.ts).
 */
import type { Sql } from "./connection.ts";
import type { Dialect } from "./dialect.ts";

export interface DbAdapter {
  readonly dialect: Dialect;
  /**
   * Runs fn in one transaction that no other writer of the database, in this process or another,
   * runs beside: the domain's "next version is max+1" and event-id order rely on it. Rolled back
   * when fn throws, or when `rollback` is set; committed otherwise.
   */
  transaction<T>(fn: (sql: Sql) => Promise<T>, rollback: boolean): Promise<T>;
  /** Runs fn in a read-only snapshot: it never sees a write that had not committed when it began. */
  snapshot<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Push between hubs (docs/hubs.md#events), where the database has it: `announce` runs inside a write transaction
   * that appended events, with the newest id, and tells every listener when that transaction commits; `listen` calls
   * `fn` with such an id as it arrives and returns a stop. Without them (SQLite), other processes' events are polled.
   */
  announce?(sql: Sql, lastEventId: number): Promise<void>;
  listen?(fn: (lastEventId: number) => void): Promise<() => Promise<void>>;
}
