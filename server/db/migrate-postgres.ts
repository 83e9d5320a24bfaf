/**
 * Applies prisma/postgres/migrations to a PostgreSQL database, as ./migrate.ts applies
 * prisma/migrations to SQLite: Prisma's own `_prisma_migrations` bookkeeping and checksums, each
 * migration and its record in one transaction (PostgreSQL's DDL is transactional), all under the
 * advisory lock `prisma migrate deploy` takes, so hubs starting together and Prisma's CLI apply
 * each migration once.
 */
import path from "node:path";
import { randomUUID } from "node:crypto";
import { PROJECT_ROOT } from "../version.ts";
import { withClient } from "./pg-driver.ts";
import { pendingMigrations, readMigrations, type AppliedRow, type MigrateResult } from "./migrate.ts";

export const PG_MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "postgres", "migrations");

/** Prisma Migrate's lock key on PostgreSQL (schema-engine's sql-schema-connector). */
const PRISMA_MIGRATE_LOCK = 72707369;

// Prisma's definition on PostgreSQL, so its CLI reads what this wrote.
const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export function migratePostgres(url: string, dir = PG_MIGRATIONS_DIR): Promise<MigrateResult> {
  return withClient(url, async (client) => {
    const migrations = readMigrations(dir);
    const applied: string[] = [];
    await client.query("BEGIN");
    try {
      await client.query(`SELECT pg_advisory_xact_lock(${PRISMA_MIGRATE_LOCK})`);
      await client.query(BOOKKEEPING);
      const rows = (await client.query<AppliedRow>(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`)).rows;
      for (const m of pendingMigrations(migrations, rows)) {
        // Without parameters the whole script goes in one simple query, several statements and all.
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, NULL, NULL, now(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        applied.push(m.name);
      }
      await client.query("COMMIT");
      return { applied, alreadyApplied: migrations.length - applied.length };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    }
  });
}
