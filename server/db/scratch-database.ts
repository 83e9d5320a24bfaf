/**
 * A new, empty database on a PostgreSQL server, dropped afterwards: each domain test gets one
 * (server/testing/temp-hub.ts), and the schema engine replays migrations in one (./schema-diff.ts).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";

export type ScratchDatabase = { url: string; drop(): Promise<void> };

async function admin(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** `serverUrl`: any database on the server, as a user allowed to create databases. */
export async function scratchDatabase(serverUrl: string, label: string): Promise<ScratchDatabase> {
  const name = `teamhub_${label}_${randomUUID().replaceAll("-", "")}`;
  await admin(serverUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  // FORCE: a test that failed half-way may have left a connection open.
  return { url: url.toString(), drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}
