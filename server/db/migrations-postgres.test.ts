/**
 * prisma/postgres/ on a real PostgreSQL server: TEST_DATABASE_URL (`.ci/run` starts a throwaway
 * cluster; locally: scripts/pg-cluster.sh). Without it these tests are skipped, and say so.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readMigrations } from "./migrate.ts";
import { PG_MIGRATIONS_DIR, migratePostgres } from "./migrate-postgres.ts";
import { PG_SCHEMA_FILE } from "./postgres-schema.ts";
import { diffMigrationsToSchema } from "./schema-diff.ts";
import { POSTGRES_URL, tempPostgres } from "../testing/temp-hub.ts";
import { tempDir } from "../testing/temp-dir.ts";

const ALL = readMigrations(PG_MIGRATIONS_DIR).map((m) => m.name);

let db: Awaited<ReturnType<typeof tempPostgres>>;
let dir: string;
beforeEach(async () => {
  if (!POSTGRES_URL) return;
  db = await tempPostgres();
  dir = tempDir("pg-migrations");
});
afterEach(async () => {
  await db?.drop();
});

async function query<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: db.where.url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

const tables = async () =>
  (await query<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`)).map(
    (t) => t.name,
  );
const applied = async () =>
  (await query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`)).map((r) => r.migration_name);

/** A copy of prisma/postgres/migrations with only its first `n` migrations. */
function firstMigrations(n: number): string {
  const copy = path.join(dir, "migrations");
  fs.mkdirSync(copy);
  for (const name of ALL.slice(0, n)) fs.cpSync(path.join(PG_MIGRATIONS_DIR, name), path.join(copy, name), { recursive: true });
  return copy;
}

function addMigration(migrationsDir: string, name: string, sql: string) {
  fs.mkdirSync(path.join(migrationsDir, name));
  fs.writeFileSync(path.join(migrationsDir, name, "migration.sql"), sql);
}

describe.skipIf(!POSTGRES_URL)("prisma/postgres/migrations and prisma/postgres/schema.prisma (PostgreSQL at TEST_DATABASE_URL)", () => {
  it("describe the same schema", async () => {
    expect(await diffMigrationsToSchema({ postgresUrl: POSTGRES_URL })).toBe("");
  });

  it("differ when the schema has a model the migrations lack", async () => {
    const schema = `${fs.readFileSync(PG_SCHEMA_FILE, "utf8")}\nmodel Extra {\n  id   Int    @id\n  note String\n}\n`;
    const sql = await diffMigrationsToSchema({ postgresUrl: POSTGRES_URL, schema });
    expect(sql).toContain(`CREATE TABLE "Extra"`);
    expect(sql).toContain(`"note" TEXT NOT NULL`);
  });

  it("apply to an empty database once, recorded as Prisma records them", async () => {
    expect(await migratePostgres(db.where.url)).toEqual({ applied: ALL, alreadyApplied: 0 });
    expect(await migratePostgres(db.where.url)).toEqual({ applied: [], alreadyApplied: ALL.length });
    expect(await applied()).toEqual(ALL);
    const [row] = await query<{ checksum: string; finished_at: Date | null; applied_steps_count: number }>(`SELECT * FROM "_prisma_migrations"`);
    expect(row.checksum).toBe(readMigrations(PG_MIGRATIONS_DIR)[0].checksum);
    expect(row.finished_at).toBeInstanceOf(Date);
    expect(row.applied_steps_count).toBe(1);
    expect(await tables()).toEqual(expect.arrayContaining(["Artifact", "ArtifactVersion", "Contract", "Event", "Team", "Token", "_prisma_migrations"]));
  });

  it("apply only what is new to a database at the previous migration", async () => {
    const migrations = firstMigrations(ALL.length - 1);
    await migratePostgres(db.where.url, migrations);
    expect(await applied()).toEqual(ALL.slice(0, -1));
    expect(await migratePostgres(db.where.url)).toEqual({ applied: ALL.slice(-1), alreadyApplied: ALL.length - 1 });
    expect(await applied()).toEqual(ALL);

    const next = path.join(dir, "next");
    fs.cpSync(PG_MIGRATIONS_DIR, next, { recursive: true });
    addMigration(next, "29991231000000_notes", `CREATE TABLE "Note" ("id" INTEGER NOT NULL PRIMARY KEY);`);
    expect(await migratePostgres(db.where.url, next)).toEqual({ applied: ["29991231000000_notes"], alreadyApplied: ALL.length });
    expect(await tables()).toContain("Note");
  });

  it("leave the database as it was when a migration fails", async () => {
    const migrations = firstMigrations(ALL.length);
    addMigration(migrations, "29991231000000_broken", `CREATE TABLE "Note" ("id" INTEGER PRIMARY KEY);\nTHIS IS NOT SQL;`);
    await expect(migratePostgres(db.where.url, migrations)).rejects.toThrow(/syntax error/);
    expect(await tables()).toEqual([]);
  });

  it("apply each migration once when several hubs migrate one new database at once", async () => {
    const results = await Promise.all(Array.from({ length: 4 }, () => migratePostgres(db.where.url)));
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, ALL.length]);
    expect(await applied()).toEqual(ALL);
  });
});
