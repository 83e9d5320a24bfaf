/**
 * DATABASE_URL → the database the hub runs on: unset, `file:…` or a path is SQLite (the embedded
 * default); `postgres://…` or `postgresql://…` is PostgreSQL. Either is migrated by the hub itself.
 */
import path from "node:path";
import type { EventBus } from "../events/bus.ts";
import { Database } from "./database.ts";
import { migrate, type MigrateResult } from "./migrate.ts";
import { migratePostgres } from "./migrate-postgres.ts";
import { PostgresAdapter, type PostgresOptions } from "./postgres.ts";
import { SqliteAdapter, type SqliteOptions } from "./sqlite.ts";

export type DatabaseLocation = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

export function databaseLocation(url: string | undefined, dataDir: string): DatabaseLocation {
  if (!url) return { kind: "sqlite", file: path.join(dataDir, "teamhub.db") };
  if (url.startsWith("file:")) return { kind: "sqlite", file: path.resolve(url.slice("file:".length)) };
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url };
  if (/^[a-z]+:\/\//i.test(url)) {
    throw new Error(`DATABASE_URL: expected file:…, a path, or postgres://…; got ${url.split(":")[0]}:`);
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
  return where.kind === "sqlite" ? migrate(where.file) : migratePostgres(where.url);
}

/** `hub`: which hub this process is (docs/hubs.md); absent for a process that runs no sessions. */
export function connectDatabase(
  where: DatabaseLocation,
  bus: EventBus,
  options: SqliteOptions & PostgresOptions & { clock?: () => Date; hub?: string } = {},
): Database {
  const adapter = where.kind === "sqlite" ? new SqliteAdapter(where.file, options) : new PostgresAdapter(where.url, options);
  return new Database(adapter, bus, { clock: options.clock, hub: options.hub });
}
