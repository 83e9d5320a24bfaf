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
import { scratchDatabase, type ScratchDatabase } from "../db/scratch-database.ts";
import { raw, sql } from "../db/sql.ts";
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
 * The migrated database a test file's PostgreSQL hubs are copied from: migrating takes about 300 ms a database on
 * the test cluster, which made the domain suite on PostgreSQL mostly migrations; a copy (CREATE DATABASE … TEMPLATE)
 * is the rows the migrations left. Made at the file's first hub, dropped after the file (./temp-dir.cleanup.ts).
 */
let template: Promise<ScratchDatabase> | null = null;

async function migratedPostgres(): Promise<ScratchDatabase> {
  template ??= (async () => {
    const t = await scratchDatabase(POSTGRES_URL!, "template");
    // Its migration's connection is closed when this resolves: a template must have none.
    await migrateDatabase({ kind: "postgres", url: t.url });
    return t;
  })();
  return scratchDatabase(POSTGRES_URL!, "test", (await template).name);
}

export async function dropPostgresTemplate(): Promise<void> {
  const t = template;
  template = null;
  if (t) await (await t).drop();
}

export async function tempHub(): Promise<TempHub> {
  const dir = tempDir("test");
  const postgres = POSTGRES_URL ? await migratedPostgres() : null;
  const where: DatabaseLocation = postgres ? { kind: "postgres", url: postgres.url } : { kind: "sqlite", file: path.join(dir, "hub.db") };
  if (!postgres) await migrateDatabase(where);
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
      await postgres?.drop();
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
