/**
 * Migrated PostgreSQL databases for a test file's hubs, reused from test to test. Copying a database
 * (CREATE DATABASE … TEMPLATE) and dropping it cost the server about 160 ms of CPU a test, more than the tests
 * themselves on the 2-core CI machine; putting a used database back as the migrations left it costs about 2 ms:
 * its other connections ended, its settings reset, its rows deleted, the migrations' rows put back and its sequences
 * restarted.
 *
 * In the `postgres` project (TEST_DATABASE_RUN set) a worker keeps its databases from file to file, so it migrates
 * once, and the run drops them at its end (./postgres-cluster.global.ts); otherwise they are dropped after each file
 * (./temp-dir.cleanup.ts).
 */
import { withClient } from "../db/pg-driver.ts";
import { scratchDatabase, type ScratchDatabase } from "../db/scratch-database.ts";
import { migrateDatabase } from "../db/open.ts";

export type PooledDatabase = { url: string; release(): void };

type Template = { db: ScratchDatabase; reset: string };

/** The run whose end drops this worker's databases, if one does. */
const POSTGRES_RUN = process.env.TEST_DATABASE_RUN;
const label = (kind: string) => (POSTGRES_RUN ? `${POSTGRES_RUN}_${kind}` : kind);

let template: Promise<Template> | null = null;
const created: ScratchDatabase[] = [];
const free: ScratchDatabase[] = [];

/** Tables in an order that deletes each before the tables it references, so no foreign key refuses a DELETE. */
function deletionOrder(tables: string[], references: { from: string; to: string }[]): string[] {
  const order: string[] = [];
  const left = new Set(tables);
  while (left.size) {
    const referenced = new Set(references.filter((r) => r.from !== r.to && left.has(r.from)).map((r) => r.to));
    const next = [...left].filter((t) => !referenced.has(t));
    if (!next.length) throw new Error(`the test databases' tables reference each other in a cycle: ${[...left].join(", ")}`);
    for (const t of next.sort()) {
      order.push(t);
      left.delete(t);
    }
  }
  return order;
}

/** The statements that put a database copied from `url` back as it is now: read once, from the template. */
async function resetScript(url: string): Promise<string> {
  return withClient(url, async (c) => {
    const ident = (name: string) => c.escapeIdentifier(name);
    const tables = (
      await c.query<{ name: string }>(
        `SELECT "table_name" AS "name" FROM information_schema.tables WHERE "table_schema" = current_schema() AND "table_type" = 'BASE TABLE'`,
      )
    ).rows.map((r) => r.name);
    const references = (
      await c.query<{ from: string; to: string }>(
        `SELECT "f"."relname" AS "from", "t"."relname" AS "to" FROM pg_constraint "k"
           JOIN pg_class "f" ON "f"."oid" = "k"."conrelid" JOIN pg_class "t" ON "t"."oid" = "k"."confrelid"
           WHERE "k"."contype" = 'f' AND "k"."connamespace" = current_schema()::regnamespace`,
      )
    ).rows;
    const statements = deletionOrder(tables, references).map((t) => `DELETE FROM ${ident(t)}`);
    for (const t of tables) {
      const rows = (await c.query(`SELECT * FROM ${ident(t)}`)).rows;
      if (rows.length)
        statements.push(`INSERT INTO ${ident(t)} SELECT * FROM json_populate_recordset(NULL::${ident(t)}, ${c.escapeLiteral(JSON.stringify(rows))})`);
    }
    const sequences = (
      await c.query<{ name: string; value: string; called: boolean }>(
        `SELECT "sequencename" AS "name", COALESCE("last_value", "start_value")::text AS "value", "last_value" IS NOT NULL AS "called"
           FROM pg_sequences WHERE "schemaname" = current_schema()`,
      )
    ).rows;
    if (sequences.length) statements.push(`SELECT ${sequences.map((s) => `setval(${c.escapeLiteral(ident(s.name))}, ${s.value}, ${s.called})`).join(", ")}`);
    return `BEGIN; ${statements.join("; ")}; COMMIT`;
  });
}

/** A migrated database of its own until `release`; made on `serverUrl` (a user allowed to create databases). */
export async function pooledPostgres(serverUrl: string): Promise<PooledDatabase> {
  template ??= (async () => {
    const db = await scratchDatabase(serverUrl, label("template"));
    // Its migration's connection is closed when this resolves: a template must have none.
    await migrateDatabase({ kind: "postgres", url: db.url });
    return { db, reset: await resetScript(db.url) };
  })();
  const { db: source, reset } = await template;
  let db = free.pop();
  if (db) {
    // A connection a test left open would otherwise write into the next test's database, and a setting a test gave
    // the database (ALTER DATABASE … SET lock_timeout) would hold for the next test's connections: one such left a
    // 100 ms lock timeout that failed a later file's ANALYZE while autovacuum held its table.
    const { name } = db;
    await withClient(db.url, async (c) => {
      await c.query(`SELECT pg_terminate_backend("pid", 10000) FROM pg_stat_activity WHERE "datname" = current_database() AND "pid" <> pg_backend_pid()`);
      await c.query(`ALTER DATABASE ${c.escapeIdentifier(name)} RESET ALL`);
      await c.query(reset);
    });
  } else {
    db = await scratchDatabase(serverUrl, label("test"), source.name);
    created.push(db);
  }
  const taken = db;
  return { url: taken.url, release: () => void free.push(taken) };
}

/** Drops every database made for this file, the template last. */
export async function dropPostgresPool(): Promise<void> {
  const t = template;
  template = null;
  free.length = 0;
  for (const db of created.splice(0)) await db.drop();
  if (t) await (await t).db.drop();
}
