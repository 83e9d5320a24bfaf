/**
 * DATABASE_URL → the database the hub runs on: unset, `file:…` or a path is SQLite (the embedded
 * default); `postgres://…` or `postgresql://…` is PostgreSQL. Either is migrated by the hub itself.
 */
import path from "node:path";
import type { EventBus } from "../events/bus.ts";
import { Database } from "./database.ts";
import { migrate, type MigrateResult } from "./migrate.ts";
import { SqliteAdapter, type SqliteOptions } from "./sqlite.ts";

export type DatabaseLocation = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export function databaseLocation(url: string | undefined, dataDir: string): DatabaseLocation {
  if (!url) return { kind: "sqlite", file: path.join(dataDir, "teamhub.db") };
  if (url.startsWith("file:")) return { kind: "sqlite", file: path.resolve(url.slice("file:".length)) };
  if (/^[a-z]+:\/\//i.test(url)) {
    throw new Error(`DATABASE_URL: only SQLite (file:…) is supported by this build; got ${url.split(":")[0]}:`);
  }
  return { kind: "sqlite", file: path.resolve(url) };
}

/** Where the database is, for logs: a PostgreSQL URL without its password. */
export function describeLocation(where: DatabaseLocation): string {
  if (where.kind === "sqlite") return where.file;
  const u = new URL(where.url);
  if (u.password) u.password = "***";
  return u.toString();
}

export async function migrateDatabase(where: DatabaseLocation): Promise<MigrateResult> {
  if (where.kind !== "sqlite") throw new Error("PostgreSQL is not supported by this build");
  return migrate(where.file);
}

export function connectDatabase(where: DatabaseLocation, bus: EventBus, options: SqliteOptions & { clock?: () => Date } = {}): Database {
  if (where.kind !== "sqlite") throw new Error("PostgreSQL is not supported by this build");
  return new Database(new SqliteAdapter(where.file, options), bus, { clock: options.clock });
}
