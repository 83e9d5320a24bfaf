/**
 * `npm run db:migration -- <name>`: after an edit of prisma/schema.prisma, writes
 *   prisma/migrations/<timestamp>_<name>/migration.sql           (SQLite), and
 *   prisma/postgres/schema.prisma, regenerated from it, with
 *   prisma/postgres/migrations/<timestamp>_<name>/migration.sql  (PostgreSQL):
 * each the SQL that brings its existing migrations up to its schema. PostgreSQL's diff needs a
 * server: TEST_DATABASE_URL's, or a throwaway cluster this script starts (scripts/pg-cluster.sh).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MIGRATIONS_DIR } from "../server/db/migrate.ts";
import { PG_MIGRATIONS_DIR } from "../server/db/migrate-postgres.ts";
import { PG_SCHEMA_FILE, postgresSchema } from "../server/db/postgres-schema.ts";
import { SCHEMA_FILE, diffMigrationsToSchema } from "../server/db/schema-diff.ts";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name>   (name: lowercase letters, digits, _)");
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);

function write(migrationsDir: string, sql: string, label: string) {
  if (!sql) return console.log(`${label}: the schema and its migrations already agree; nothing to write`);
  const dir = path.join(migrationsDir, `${stamp}_${name}`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, "migration.sql"), sql);
  console.log(`${label}: wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
}

async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  if (process.env.TEST_DATABASE_URL) return fn(process.env.TEST_DATABASE_URL);
  const cluster = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-pg-"));
  const script = path.resolve(import.meta.dirname, "pg-cluster.sh");
  const url = execFileSync(script, ["start", cluster], { encoding: "utf8" }).trim();
  try {
    return await fn(url);
  } finally {
    execFileSync(script, ["stop", cluster]);
  }
}

write(MIGRATIONS_DIR, await diffMigrationsToSchema(), "SQLite");
fs.mkdirSync(PG_MIGRATIONS_DIR, { recursive: true });
fs.writeFileSync(PG_SCHEMA_FILE, postgresSchema(fs.readFileSync(SCHEMA_FILE, "utf8")));
write(PG_MIGRATIONS_DIR, await withPostgres((url) => diffMigrationsToSchema({ postgresUrl: url })), "PostgreSQL");
