/**
 * A real hub database, migrated like production, made fresh for each test and removed after it:
 * a SQLite file in a temporary directory, or, with TEST_DATABASE_URL=postgres://… (a server the
 * tests may create databases on, e.g. scripts/pg-cluster.sh's), a PostgreSQL database of its own.
 * Domain tests use it directly; nothing is mocked.
 */
import fs from "node:fs";
import path from "node:path";
import type { Database } from "../db/database.ts";
import { connectDatabase, migrateDatabase, type DatabaseLocation } from "../db/open.ts";
import { scratchDatabase } from "../db/scratch-database.ts";
import { raw, sql } from "../db/sql.ts";
import { pooledPostgres } from "./postgres-pool.ts";
import { tempDir } from "./temp-dir.ts";
import { EventBus } from "../events/bus.ts";
import type { HubEvent } from "../events/types.ts";
import type { DomainDeps } from "../domain/deps.ts";

/** Real time until a test moves it on: instead of sleeping through a window or a deadline, `advance` past it. */
export type TestClock = { now(): Date; advance(ms: number): void };

export type TempHub = DomainDeps & {
  bus: EventBus;
  dir: string;
  where: DatabaseLocation;
  events: HubEvent[];
  clock: TestClock;
  /** Another connection to the same database, as a second process would have. */
  connect(bus: EventBus): Database;
  close(): Promise<void>;
};

/** The PostgreSQL server tests run on, if any. */
export const POSTGRES_URL = process.env.TEST_DATABASE_URL;

/** A new, empty database on the test server, and how to drop it. */
export async function tempPostgres(): Promise<{ where: { kind: "postgres"; url: string }; drop(): Promise<void> }> {
  const db = await scratchDatabase(POSTGRES_URL!, "test");
  return { where: { kind: "postgres", url: db.url }, drop: db.drop };
}

/**
 * A migrated SQLite file that a test's database is copied from: copying takes 0.2 ms, migrating 17 ms, and the
 * domain suite makes a database per test. Made again once the temporary directories it lives in are removed, after
 * each file (./temp-dir.cleanup.ts).
 */
let sqliteTemplate: string | null = null;

async function migratedSqlite(): Promise<string> {
  if (sqliteTemplate && fs.existsSync(sqliteTemplate)) return sqliteTemplate;
  const file = path.join(tempDir("template"), "hub.db");
  await migrateDatabase({ kind: "sqlite", file });
  return (sqliteTemplate = file);
}

export async function tempHub(): Promise<TempHub> {
  const dir = tempDir("test");
  const postgres = POSTGRES_URL ? await pooledPostgres(POSTGRES_URL) : null;
  const where: DatabaseLocation = postgres ? { kind: "postgres", url: postgres.url } : { kind: "sqlite", file: path.join(dir, "hub.db") };
  if (where.kind === "sqlite") fs.copyFileSync(await migratedSqlite(), where.file);
  const bus = new EventBus();
  let offset = 0;
  const clock: TestClock = { now: () => new Date(Date.now() + offset), advance: (ms) => void (offset += ms) };
  const db = connectDatabase(where, bus, { clock: clock.now });
  const events: HubEvent[] = [];
  bus.subscribe((e) => void events.push(...e));
  return {
    db,
    bus,
    dir,
    where,
    events,
    clock,
    connect: (other) => connectDatabase(where, other),
    async close() {
      await db.close();
      postgres?.release();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Another hub process on the same database (docs/hubs.md): its own connection, bus and hub id, the test's clock. */
export function hubOn(h: TempHub, id: string): TempHub {
  const bus = new EventBus();
  const events: HubEvent[] = [];
  bus.subscribe((e) => void events.push(...e));
  const db = connectDatabase(h.where, bus, { clock: h.clock.now, hub: id });
  return { ...h, db, bus, events, close: () => db.close() };
}

/**
 * Every row of every table, in a stable order (by every column, left to right: for the tables
 * with a numeric key first, insertion order), for "nothing was written" assertions.
 */
export async function snapshotTables(hub: Pick<TempHub, "db">): Promise<Record<string, unknown[]>> {
  return hub.db.read(async (s) => {
    const tables = await s.all<{ name: string }>(
      s.dialect.name === "sqlite"
        ? sql`SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" NOT LIKE 'sqlite_%' ORDER BY "name"`
        : sql`SELECT "table_name" AS "name" FROM information_schema.tables WHERE "table_schema" = current_schema() AND "table_type" = 'BASE TABLE' ORDER BY "table_name"`,
    );
    const result: Record<string, unknown[]> = {};
    for (const { name } of tables) {
      const columns = await s.all<{ n: number }>(
        s.dialect.name === "sqlite"
          ? sql`SELECT "cid" + 1 AS "n" FROM pragma_table_info(${name}) ORDER BY "cid"`
          : sql`SELECT "ordinal_position" AS "n" FROM information_schema.columns WHERE "table_schema" = current_schema() AND "table_name" = ${name} ORDER BY "ordinal_position"`,
      );
      result[name] = await s.all(sql`SELECT * FROM ${raw(`"${name}"`)} ORDER BY ${raw(columns.map((c) => c.n).join(", "))}`);
    }
    return result;
  });
}
