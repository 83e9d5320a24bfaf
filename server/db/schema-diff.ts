/**
 * Tooling, never loaded by the running hub: Prisma's schema engine compiled to WebAssembly,
 * used to write new migrations (scripts/new-migration.ts) and to prove that each migration folder
 * and its schema describe the same schema (server/db/migrations.test.ts): prisma/migrations and
 * prisma/schema.prisma on SQLite (in memory), prisma/postgres/ on PostgreSQL (the engine replays
 * the migrations in a shadow database it creates on the server at `url` and drops afterwards).
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter, type SqlMigrationAwareDriverAdapterFactory } from "@prisma/driver-adapter-utils";
import pg from "pg";
import * as engineModule from "@prisma/schema-engine-wasm/schema_engine_bg";
import { MIGRATIONS_DIR, readMigrations } from "./migrate.ts";
import { PG_MIGRATIONS_DIR } from "./migrate-postgres.ts";
import { PG_SCHEMA_FILE } from "./postgres-schema.ts";
import { scratchDatabase } from "./scratch-database.ts";

export const SCHEMA_FILE = path.resolve(MIGRATIONS_DIR, "../schema.prisma");

let loaded: Promise<void> | undefined;

function loadWasm(): Promise<void> {
  loaded ??= (async () => {
    const require = createRequire(import.meta.url);
    const wasmFile = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg").replace(/\.js$/, ".wasm");
    const { instance } = await WebAssembly.instantiate(fs.readFileSync(wasmFile), {
      "./schema_engine_bg.js": engineModule as unknown as WebAssembly.ModuleImports,
    });
    engineModule.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as (() => void) | undefined)?.();
  })();
  return loaded;
}

// The engine replays migrations with executeRaw, which better-sqlite3 refuses for scripts of
// several statements; those go to executeScript instead.
function acceptScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const executeRaw = adapter.executeRaw.bind(adapter);
  adapter.executeRaw = async (query) => {
    if (query.args.length === 0 && /;\s*\S/.test(query.sql)) {
      await adapter.executeScript(query.sql);
      return 0;
    }
    return executeRaw(query);
  };
  return adapter;
}

// To read a partial index's WHERE clause the engine asks SQLite for `... AND name = "<index>"`: a double-quoted string,
// which better-sqlite3 (built without SQLite's double-quoted-string misfeature) reads as a column name and refuses.
const INDEX_SQL_BY_NAME = /(FROM sqlite_master WHERE type = 'index' AND name = )"([^"]*)"/;

function quoteIndexNames(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = (query) =>
    queryRaw({ ...query, sql: query.sql.replace(INDEX_SQL_BY_NAME, (_, head: string, name: string) => `${head}'${name.replaceAll("'", "''")}'`) });
  return adapter;
}

const PG_CHAR = 18;
const PG_TEXT = 25;
let charAsText = false;

/**
 * The engine describes a PostgreSQL schema with catalog queries that return columns of the
 * one-byte type "char" (pg_catalog's flags), which @prisma/adapter-pg refuses ("Unsupported column
 * type char"). pg already reads them as strings: report them as text. Tooling only, in this process.
 */
function readCharAsText(): void {
  if (charAsText) return;
  charAsText = true;
  const retype = (r: pg.QueryResult | undefined) => {
    for (const f of r?.fields ?? []) if (f.dataTypeID === PG_CHAR) f.dataTypeID = PG_TEXT;
    return r;
  };
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  // A pool calls its client with a callback; the adapter's own clients, without.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const last = args.at(-1);
    if (typeof last === "function") args[args.length - 1] = (err: Error | null, r?: pg.QueryResult) => last(err, retype(r));
    const result = query.apply(this, args);
    return result instanceof Promise ? result.then(retype) : result;
  } as typeof pg.Client.prototype.query;
}

/** Which migrations and schema: SQLite's by default; PostgreSQL's with the URL of a server to diff on. */
export type DiffTarget = { postgresUrl?: string; migrationsDir?: string; schema?: string };

/** SQL that would bring a database built from the migrations up to the schema ("" if none). */
export async function diffMigrationsToSchema(target: DiffTarget = {}): Promise<string> {
  const pgUrl = target.postgresUrl;
  const migrationsDir = target.migrationsDir ?? (pgUrl ? PG_MIGRATIONS_DIR : MIGRATIONS_DIR);
  const schema = target.schema ?? fs.readFileSync(pgUrl ? PG_SCHEMA_FILE : SCHEMA_FILE, "utf8");
  await loadWasm();
  if (pgUrl) readCharAsText();
  // The engine replays the migrations in the database it is given (not a shadow one of its own): a scratch one.
  const scratch = pgUrl ? await scratchDatabase(pgUrl, "diff") : null;
  try {
    return await diff(migrationsDir, schema, scratch ? new PrismaPg({ connectionString: scratch.url }) : new PrismaBetterSqlite3({ url: ":memory:" }));
  } finally {
    await scratch?.drop();
  }
}

async function diff(migrationsDir: string, schema: string, factory: SqlMigrationAwareDriverAdapterFactory): Promise<string> {
  const adapter = bindMigrationAwareSqlAdapterFactory({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => quoteIndexNames(acceptScripts(await factory.connect())),
    connectToShadowDb: async () => quoteIndexNames(acceptScripts(await factory.connectToShadowDb())),
  });
  const engine = await engineModule.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, adapter);
  try {
    const lockFile = path.join(migrationsDir, "migration_lock.toml");
    const result = await engine.diff({
      from: {
        tag: "migrations",
        baseDir: migrationsDir,
        lockfile: { path: "migration_lock.toml", content: fs.existsSync(lockFile) ? fs.readFileSync(lockFile, "utf8") : null },
        shadowDbInitScript: "",
        migrationDirectories: readMigrations(migrationsDir).map((m) => ({
          path: m.name,
          migrationFile: { path: "migration.sql", content: { tag: "ok" as const, value: m.sql } },
        })),
      },
      to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
      script: true,
      exitCode: true,
      filters: { externalTables: [], externalEnums: [] },
    });
    return result.exitCode === 0 ? "" : (result.stdout ?? "");
  } finally {
    engine.free();
  }
}
