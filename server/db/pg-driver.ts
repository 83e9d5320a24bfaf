/**
 * The `pg` driver, loaded when a PostgreSQL database is first opened: a hub on SQLite, the embedded default, does not
 * pay the 50 ms of CPU that loading it costs at every start.
 */
import { createRequire } from "node:module";
import type Pg from "pg";

const require = createRequire(import.meta.url);
let driver: typeof Pg | undefined;

export const pgDriver = (): typeof Pg => (driver ??= require("pg") as typeof Pg);

/** One connection for `run`, closed after it whatever happens. */
export async function withClient<T>(url: string, run: (client: Pg.Client) => Promise<T>): Promise<T> {
  const client = new (pgDriver().Client)({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
