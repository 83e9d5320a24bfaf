/**
 * Tooling, never loaded by the running hub: Prisma's schema engine compiled to WebAssembly,
 * used to write new migrations (scripts/new-migration.ts) and to prove that prisma/migrations
 * and prisma/schema.prisma describe the same schema (server/db/migrations.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { bindMigrationAwareSqlAdapterFactory, type SqlDriverAdapter } from "@prisma/driver-adapter-utils";
import * as engineModule from "@prisma/schema-engine-wasm/schema_engine_bg";
import { MIGRATIONS_DIR, readMigrations } from "./migrate.ts";

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

/** SQL that would bring a database built from prisma/migrations up to schema.prisma ("" if none). */
export async function diffMigrationsToSchema(migrationsDir = MIGRATIONS_DIR, schema = fs.readFileSync(SCHEMA_FILE, "utf8")): Promise<string> {
  await loadWasm();
  const factory = new PrismaBetterSqlite3({ url: ":memory:" });
  const adapter = bindMigrationAwareSqlAdapterFactory({
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => acceptScripts(await factory.connect()),
    connectToShadowDb: async () => acceptScripts(await factory.connectToShadowDb()),
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
