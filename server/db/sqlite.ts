/**
 * The SQLite adapter: one writer connection (transactions BEGIN IMMEDIATE, so a second process
 * writing the same file waits for the lock) and one reader connection whose transactions are WAL
 * snapshots. Dates are written in the ISO form Prisma's SQLite adapter writes and DATETIME
 * columns come back as Date, so Prisma Client and this layer read each other's rows.
 */
import BetterSqlite3 from "better-sqlite3";
import type { DbAdapter, WriteBody } from "./adapter.ts";
import { SAFETY_NET_PAGES, startCheckpointer } from "./checkpointer.ts";
import { fromSqlDate, type Param, type RunResult, type Sql } from "./connection.ts";
import type { Query } from "./sql.ts";
import { SQLITE } from "./dialect.ts";
import { appendEvents } from "./event-append.ts";
import { Mutex } from "./mutex.ts";

type Prepared = { stmt: BetterSqlite3.Statement; dateColumns: string[] };

// Dynamic SQL (IN lists of varying length) could otherwise grow the cache without bound.
const STATEMENT_CACHE_SIZE = 1000;

// A transaction binds its one `now` many times: its text is kept.
let lastDate: Date | null = null;
let lastTime = NaN;
let lastText = "";

export function toSqlDate(d: Date): string {
  const time = d.getTime();
  if (d !== lastDate || time !== lastTime) {
    lastDate = d;
    lastTime = time;
    lastText = d.toISOString().replace("Z", "+00:00");
  }
  return lastText;
}

function bind(params: readonly Param[]): unknown[] {
  return params.map((p) => {
    if (p === undefined) return null;
    if (p instanceof Date) return toSqlDate(p);
    if (typeof p === "boolean") return p ? 1 : 0;
    return p;
  });
}

export class Connection implements Sql {
  readonly dialect = SQLITE;
  readonly raw: BetterSqlite3.Database;
  private readonly cache = new Map<string, Prepared>();

  constructor(file: string, options: { readonly?: boolean; synchronous?: "normal" | "full"; autoCheckpointPages?: number } = {}) {
    this.raw = new BetterSqlite3(file, { readonly: options.readonly ?? false, timeout: 5000 });
    this.raw.pragma("busy_timeout = 5000");
    this.raw.pragma("foreign_keys = ON");
    if (!options.readonly) {
      this.raw.pragma("journal_mode = WAL");
      this.raw.pragma(`synchronous = ${options.synchronous ?? "normal"}`);
      if (options.autoCheckpointPages) this.raw.pragma(`wal_autocheckpoint = ${options.autoCheckpointPages}`);
      // After a checkpoint the WAL file is truncated back to this size instead of staying at its peak.
      this.raw.pragma("journal_size_limit = 67108864");
    }
  }

  private prepare(sql: string): Prepared {
    const hit = this.cache.get(sql);
    if (hit) return hit;
    const stmt = this.raw.prepare(sql);
    const dateColumns = stmt.reader
      ? stmt
          .columns()
          .filter((c) => c.type?.toUpperCase() === "DATETIME")
          .map((c) => c.name)
      : [];
    const prepared = { stmt, dateColumns };
    if (this.cache.size >= STATEMENT_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(sql, prepared);
    return prepared;
  }

  private mapRow<T>(row: Record<string, unknown> | undefined, dateColumns: string[]): T | undefined {
    if (row) for (const c of dateColumns) row[c] = fromSqlDate(row[c]);
    return row as T | undefined;
  }

  allSync<T>(sql: string, params: readonly Param[] = []): T[] {
    const { stmt, dateColumns } = this.prepare(sql);
    const rows = stmt.all(...bind(params)) as Record<string, unknown>[];
    if (dateColumns.length) for (const r of rows) this.mapRow(r, dateColumns);
    return rows as T[];
  }

  getSync<T>(sql: string, params: readonly Param[] = []): T | undefined {
    const { stmt, dateColumns } = this.prepare(sql);
    return this.mapRow<T>(stmt.get(...bind(params)) as Record<string, unknown> | undefined, dateColumns);
  }

  runSync(sql: string, params: readonly Param[] = []): RunResult {
    const r = this.prepare(sql).stmt.run(...bind(params));
    return { changes: r.changes };
  }

  async all<T>(query: Query): Promise<T[]> {
    return this.allSync<T>(query.text, query.params);
  }

  async get<T>(query: Query): Promise<T | undefined> {
    return this.getSync<T>(query.text, query.params);
  }

  async run(query: Query): Promise<RunResult> {
    return this.runSync(query.text, query.params);
  }

  close(): void {
    this.cache.clear();
    this.raw.close();
  }
}

export type SqliteOptions = { synchronous?: "normal" | "full"; backgroundCheckpoints?: boolean };

export class SqliteAdapter implements DbAdapter {
  readonly dialect = SQLITE;
  readonly writer: Connection;
  readonly reader: Connection;
  /** One reader connection holds one snapshot at a time. */
  private readonly readLock = new Mutex();
  private readonly checkpointer: { stop(): void } | null;

  constructor(file: string, options: SqliteOptions = {}) {
    const background = options.backgroundCheckpoints ?? false;
    this.writer = new Connection(file, { synchronous: options.synchronous, autoCheckpointPages: background ? SAFETY_NET_PAGES : undefined });
    this.reader = new Connection(file, { readonly: true });
    this.checkpointer = background ? startCheckpointer(file) : null;
  }

  async transaction<T>(fn: (sql: Sql) => Promise<WriteBody<T>>, { rollback }: { rollback: boolean }): Promise<{ value: T; eventIds: number[] }> {
    this.writer.runSync("BEGIN IMMEDIATE");
    try {
      const { value, events } = await fn(this.writer);
      const eventIds = await appendEvents(this.writer, events);
      this.writer.runSync(rollback ? "ROLLBACK" : "COMMIT");
      return { value, eventIds };
    } catch (e) {
      if (this.writer.raw.inTransaction) this.writer.runSync("ROLLBACK");
      throw e;
    }
  }

  async snapshot<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    const release = await this.readLock.lock();
    try {
      this.reader.runSync("BEGIN");
      try {
        return await fn(this.reader);
      } finally {
        if (this.reader.raw.inTransaction) this.reader.runSync("COMMIT");
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    this.checkpointer?.stop();
    this.writer.close();
    this.reader.close();
  }
}
