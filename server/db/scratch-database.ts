/**
 * A new, empty database on a PostgreSQL server, dropped afterwards: the domain tests' hubs are copied into some
 * (server/testing/postgres-pool.ts), and the schema engine replays migrations in one (./schema-diff.ts).
 */
import { randomUUID } from "node:crypto";
import { withClient } from "./pg-driver.ts";

export type ScratchDatabase = { name: string; url: string; drop(): Promise<void> };

const admin = (serverUrl: string, statement: string) => withClient(serverUrl, async (c) => void (await c.query(statement)));

/** Drops the scratch databases labelled `label`, whoever made them: a test run's, at its end. */
export function dropScratchDatabases(serverUrl: string, label: string): Promise<void> {
  return withClient(serverUrl, async (c) => {
    const { rows } = await c.query<{ name: string }>(`SELECT "datname" AS "name" FROM pg_database WHERE starts_with("datname", $1)`, [`teamhub_${label}_`]);
    for (const { name } of rows) await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
  });
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
