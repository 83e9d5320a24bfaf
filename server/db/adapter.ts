/**
 * One database behind the hub's Database (./database.ts): the SQLite adapter (./sqlite.ts) or the
 * PostgreSQL one (./postgres.ts), chosen by DATABASE_URL (./open.ts).
 */
import type { Sql } from "./connection.ts";
import type { Dialect } from "./dialect.ts";
import type { EventValues } from "./event-append.ts";

/** What a write transaction's body gives back: its result, and the events to append before COMMIT, oldest first. */
export type WriteBody<T> = { value: T; events: readonly EventValues[] };

export interface DbAdapter {
  readonly dialect: Dialect;
  /**
   * Runs fn in one transaction that no other writer of the same scope, in this process or another,
   * runs beside: the domain's "next version is max+1" relies on it. The scope is one team (`team`),
   * whose writes may run beside other teams' where the database allows it (PostgreSQL), or the whole
   * database (no `team`), which runs beside no other write. Rolled back when fn throws, or when
   * `rollback` is set; committed otherwise.
   *
   * The events fn gives back are appended as the transaction's last statements, in as few round trips as the database
   * takes (on PostgreSQL one message with COMMIT), and their ids come back in the same order, which is commit order
   * across every writer (docs/postgres.md#the-event-log). Where the database pushes (PostgreSQL), every other process
   * listening hears of them when the transaction commits, never when it rolls back.
   */
  transaction<T>(fn: (sql: Sql) => Promise<WriteBody<T>>, options: { rollback: boolean; team?: string }): Promise<{ value: T; eventIds: number[] }>;
  /** Runs fn in a read-only snapshot: it never sees a write that had not committed when it began. */
  snapshot<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Calls `fn` whenever another process's write that appended events commits, and returns a stop; absent where the
   * database cannot push (SQLite), where other processes' events are polled.
   */
  listen?(fn: () => void): Promise<() => Promise<void>>;
}
