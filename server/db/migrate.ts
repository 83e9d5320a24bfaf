/**
 * Applies prisma/migrations without Prisma's native schema engine (it cannot be downloaded on
 * every machine). Bookkeeping uses Prisma's own `_prisma_migrations` table and checksums, so
 * `prisma migrate deploy` agrees with what this applied wherever the engine exists.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../version.ts";
import BetterSqlite3 from "better-sqlite3";

export const MIGRATIONS_DIR = path.join(PROJECT_ROOT, "prisma", "migrations");

export type Migration = { name: string; sql: string; checksum: string };
export type MigrateResult = { applied: string[]; alreadyApplied: number };

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(dir, d.name, "migration.sql")))
    .map((d) => d.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" TEXT PRIMARY KEY NOT NULL,
  "checksum" TEXT NOT NULL,
  "finished_at" DATETIME,
  "migration_name" TEXT NOT NULL,
  "logs" TEXT,
  "rolled_back_at" DATETIME,
  "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
  "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
)`;

/** A row of `_prisma_migrations`, whichever database holds it (the dates are text on SQLite, Date on PostgreSQL). */
export type AppliedRow = { migration_name: string; checksum: string; finished_at: unknown; rolled_back_at: unknown };

/**
 * The migrations still to apply, in order, given the bookkeeping rows: one that started and never finished stops
 * everything, and one edited after it was applied is only warned about.
 */
export function pendingMigrations(migrations: Migration[], rows: AppliedRow[]): Migration[] {
  const done = new Map(rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
  return migrations.filter((m) => {
    const row = done.get(m.name);
    if (row && row.finished_at === null) {
      throw new Error(`migration ${m.name} started earlier and did not finish; inspect the database before retrying`);
    }
    if (row && row.checksum !== m.checksum) console.warn(`[teamhub] migration ${m.name} was edited after it was applied`);
    return !row;
  });
}

const BUSY_TIMEOUT_MS = 10_000;

/**
 * Switching a new file to WAL needs an exclusive lock, and SQLite reports SQLITE_BUSY for it at
 * once instead of waiting (the busy timeout does not apply), so a second hub starting on the
 * same new file must retry.
 */
function enableWal(db: BetterSqlite3.Database): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (;;) {
    try {
      db.pragma("journal_mode = WAL");
      return;
    } catch (e) {
      if ((e as { code?: string }).code !== "SQLITE_BUSY" || Date.now() > deadline) throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
  }
}

export function migrate(file: string, dir = MIGRATIONS_DIR): MigrateResult {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const db = new BetterSqlite3(file, { timeout: BUSY_TIMEOUT_MS });
  try {
    enableWal(db);
    const migrations = readMigrations(dir);
    const applied: string[] = [];
    // IMMEDIATE: two hubs starting on one file at once must not both apply a migration. The
    // bookkeeping table is created inside it too: outside, a racing hub could get SQLITE_BUSY.
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(BOOKKEEPING);
      const rows = db.prepare(`SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"`).all() as AppliedRow[];
      for (const m of pendingMigrations(migrations, rows)) {
        db.exec(m.sql);
        const now = new Date().toISOString();
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at, applied_steps_count) VALUES (?,?,?,?,NULL,NULL,?,1)`,
        ).run(randomUUID(), m.checksum, now, m.name, now);
        applied.push(m.name);
      }
      db.exec("COMMIT");
      return { applied, alreadyApplied: migrations.length - applied.length };
    } catch (e) {
      if (db.inTransaction) db.exec("ROLLBACK");
      throw e;
    }
  } finally {
    db.close();
  }
}
