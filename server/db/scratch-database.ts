/**
 * A new, empty database on a PostgreSQL server, dropped afterwards: each domain test gets one
 * (server/testing/temp-hub.ts), and the schema engine replays migrations in one (./schema-diff.ts).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Drops the scratch databases labelled `label`, whoever made them: a test run's, at its end. */
export async function dropScratchDatabases(serverUrl: string, label: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string }>(`SELECT "datname" AS "name" FROM pg_database WHERE starts_with("datname", $1)`, [
      `teamhub_${label}_`,
    ]);
    for (const { name } of rows) await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/**
 * `serverUrl`: any database on the server, as a user allowed to create databases. `template`: a database to copy
 * (nothing may be connected to it meanwhile); without it, an empty one.
 */
export async function scratchDatabase(serverUrl: string, label: string, template?: string): Promise<ScratchDatabase> {
  const name = `teamhub_${label}_${randomUUID().replaceAll("-", "")}`;
  await admin(serverUrl, `CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // FORCE: a test that failed half-way may have left a connection open.
  return { name, url: url.toString(), drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
