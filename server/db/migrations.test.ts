import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import BetterSqlite3 from "better-sqlite3";
import { beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS_DIR, migrate, readMigrations, type MigrateResult } from "./migrate.ts";
import { PG_SCHEMA_FILE, postgresSchema } from "./postgres-schema.ts";
import { SCHEMA_FILE, diffMigrationsToSchema } from "./schema-diff.ts";
import { tempDir } from "../testing/temp-dir.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const INIT = "20261121000000_init";
/** Every committed migration, in order: the first is INIT. */
const ALL = readMigrations().map((m) => m.name);

let dir: string;
beforeEach(() => (dir = tempDir("migrations")));

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A copy of prisma/migrations whose migrations can be edited or added to. */
function copyMigrations(edit: (sql: string) => string = (s) => s): string {
  const copy = path.join(dir, "migrations");
  fs.cpSync(MIGRATIONS_DIR, copy, { recursive: true });
  const file = path.join(copy, INIT, "migration.sql");
  fs.writeFileSync(file, edit(fs.readFileSync(file, "utf8")));
  return copy;
}

function addMigration(migrationsDir: string, name: string, sql: string) {
  fs.mkdirSync(path.join(migrationsDir, name));
  fs.writeFileSync(path.join(migrationsDir, name, "migration.sql"), sql);
}

type AppliedRow = {
  id: string;
  checksum: string;
  migration_name: string;
  finished_at: string | null;
  rolled_back_at: string | null;
  applied_steps_count: number;
};

function inspect(file: string) {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>).map((t) => t.name);
    const applied = tables.includes("_prisma_migrations")
      ? (db.prepare(`SELECT * FROM "_prisma_migrations" ORDER BY "started_at", "migration_name"`).all() as AppliedRow[])
      : [];
    return { applied, tables };
  } finally {
    db.close();
  }
}

describe("prisma/migrations and schema.prisma", () => {
  it("describe the same schema", async () => {
    expect(await diffMigrationsToSchema()).toBe("");
  });

  it("differ when the schema has a model the migrations lack", async () => {
    const schema = `${fs.readFileSync(SCHEMA_FILE, "utf8")}\nmodel Extra {\n  id   Int    @id\n  note String\n}\n`;
    const sql = await diffMigrationsToSchema({ schema });
    expect(sql).toContain(`CREATE TABLE "Extra"`);
    expect(sql).toContain(`"note" TEXT NOT NULL`);
  });

  it("differ when a migration misses an index", async () => {
    const statement = `CREATE INDEX "Event_type_id_idx" ON "Event"("type", "id");`;
    const migrations = copyMigrations((sql) => {
      expect(sql).toContain(statement);
      return sql.replace(statement, "");
    });
    const sql = await diffMigrationsToSchema({ migrationsDir: migrations });
    expect(sql).toContain(`CREATE INDEX "Event_type_id_idx" ON "Event"("type", "id")`);
    expect(sql).not.toContain("CREATE TABLE");
  });
});

describe("prisma/postgres/schema.prisma", () => {
  it("is prisma/schema.prisma for PostgreSQL, regenerated since its last change (npm run db:migration)", () => {
    expect(fs.readFileSync(PG_SCHEMA_FILE, "utf8")).toBe(postgresSchema(fs.readFileSync(SCHEMA_FILE, "utf8")));
  });

  it("has the SQLite schema's models and nothing else changed but the datasource and client", () => {
    const sqlite = fs.readFileSync(SCHEMA_FILE, "utf8");
    const postgres = postgresSchema(sqlite);
    expect(postgres).toContain(`provider = "postgresql"`);
    expect(postgres).toContain(`output       = "../../server/generated/prisma-pg"`);
    const models = (text: string) => text.slice(text.indexOf("\nmodel "));
    expect(models(postgres)).toBe(models(sqlite));
  });
});

describe("migrate()", () => {
  it("applies each migration once and records it with its sha256 checksum", () => {
    const file = path.join(dir, "nested", "hub.db");
    expect(migrate(file)).toEqual({ applied: ALL, alreadyApplied: 0 });
    expect(migrate(file)).toEqual({ applied: [], alreadyApplied: ALL.length });

    const { applied, tables } = inspect(file);
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, INIT, "migration.sql"), "utf8");
    expect(applied.map((r) => r.migration_name)).toEqual(ALL);
    expect(applied[0]).toMatchObject({ migration_name: INIT, checksum: sha256(sql), rolled_back_at: null, applied_steps_count: 1 });
    expect(applied[0].checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(applied[0].finished_at).not.toBeNull();
    expect(readMigrations()[0]).toMatchObject({ name: INIT, checksum: sha256(sql) });
    expect(tables).toEqual(expect.arrayContaining(["Artifact", "ArtifactVersion", "Contract", "Event", "Team", "Token", "_prisma_migrations"]));
  });

  it("applies only the migrations that are new", () => {
    const migrations = copyMigrations();
    const file = path.join(dir, "hub.db");
    migrate(file, migrations);
    addMigration(migrations, "20261201000000_notes", `CREATE TABLE "Note" ("id" INTEGER NOT NULL PRIMARY KEY);`);
    expect(migrate(file, migrations)).toEqual({ applied: ["20261201000000_notes"], alreadyApplied: ALL.length });
    expect(inspect(file).applied.map((r) => r.migration_name)).toEqual([...ALL, "20261201000000_notes"]);
  });

  it("leaves the database as it was when a migration fails", () => {
    const migrations = copyMigrations();
    addMigration(migrations, "20261201000000_broken", `CREATE TABLE "Note" ("id" INTEGER PRIMARY KEY);\nTHIS IS NOT SQL;`);
    const file = path.join(dir, "hub.db");
    expect(() => migrate(file, migrations)).toThrow(/syntax error/);
    expect(inspect(file)).toEqual({ applied: [], tables: [] });
  });

  it("refuses to continue after a migration that started and never finished", () => {
    const file = path.join(dir, "hub.db");
    migrate(file);
    const db = new BetterSqlite3(file);
    db.prepare(`UPDATE "_prisma_migrations" SET "finished_at" = NULL`).run();
    db.close();
    expect(() => migrate(file)).toThrow(`migration ${INIT} started earlier and did not finish; inspect the database before retrying`);
  });

  it("waits for another process that holds the write lock of a new file, instead of failing at once", async () => {
    const file = path.join(dir, "hub.db");
    // Another process holds a write lock while the file is still in rollback-journal mode, as a
    // hub does while it switches the file to WAL; SQLite then refuses the switch without waiting.
    const holder = execFile(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import Database from "better-sqlite3";
       const db = new Database(${JSON.stringify(file)});
       db.exec("BEGIN IMMEDIATE");
       console.log("locked");
       setTimeout(() => { db.exec("COMMIT"); db.close(); }, 400);`,
      ],
      { cwd: ROOT },
    );
    await new Promise<void>((resolve, reject) => {
      holder.stdout!.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
      holder.on("exit", (code) => reject(new Error(`the lock holder exited (${code}) before locking`)));
    });
    const started = Date.now();
    expect(migrate(file)).toEqual({ applied: ALL, alreadyApplied: 0 });
    expect(Date.now() - started).toBeGreaterThan(100);
    await new Promise((r) => holder.on("exit", r));
  });

  it("applies each migration once when several processes migrate one new file at once", async () => {
    const file = path.join(dir, "hub.db");
    const n = 4;
    // A barrier: each process announces itself and waits until all have.
    const script = `
      import fs from "node:fs";
      import { migrate } from ${JSON.stringify(path.join(ROOT, "server/db/migrate.ts"))};
      const barrier = ${JSON.stringify(path.join(dir, "barrier"))};
      fs.mkdirSync(barrier, { recursive: true });
      fs.writeFileSync(barrier + "/" + process.pid, "");
      const until = Date.now() + 30000;
      const sleep = (ms) => ms > 0 && Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
      while (fs.readdirSync(barrier).length < ${n} && Date.now() < until) sleep(2);
      // Then all start at one instant: 100 ms after the last one arrived.
      const last = Math.max(...fs.readdirSync(barrier).map((f) => fs.statSync(barrier + "/" + f).mtimeMs));
      sleep(last + 100 - Date.now());
      console.log(JSON.stringify(migrate(${JSON.stringify(file)})));
    `;
    const run = () =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT }).then(
        (r) => JSON.parse(r.stdout.trim().split("\n").at(-1)!) as MigrateResult,
      );
    const results = await Promise.all(Array.from({ length: n }, run));
    expect(results.map((r) => r.applied.length).sort()).toEqual([0, 0, 0, ALL.length]);
    expect(results.map((r) => r.alreadyApplied).sort()).toEqual([0, ALL.length, ALL.length, ALL.length]);
    expect(inspect(file).applied.map((r) => r.migration_name)).toEqual(ALL);
  });
});
