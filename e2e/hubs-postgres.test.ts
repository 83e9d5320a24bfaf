/**
 * Two hub processes on one PostgreSQL database (docs/hubs.md, docs/postgres.md): the suite of e2e/helpers/two-hubs.ts,
 * on a database of its own on TEST_DATABASE_URL's server (`.ci/run` starts one). Skipped without it.
 */
import pg from "pg";
import { describe } from "vitest";
import { scratchDatabase, type ScratchDatabase } from "../server/db/scratch-database.ts";
import { POSTGRES_URL } from "../server/testing/temp-hub.ts";
import { twoHubsSuite } from "./helpers/two-hubs.ts";

let db: ScratchDatabase | undefined;
describe.skipIf(!POSTGRES_URL)("on PostgreSQL", () => {
  twoHubsSuite({
    name: "PostgreSQL",
    async open() {
      db = await scratchDatabase(POSTGRES_URL!, "hubs");
    },
    url: () => db!.url,
    async query<T>(sql: string) {
      const client = new pg.Client({ connectionString: db!.url });
      await client.connect();
      try {
        // COUNT comes back as text (bigint): the checks compare numbers.
        return (await client.query(sql)).rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === "n" ? Number(v) : v]))) as T[];
      } finally {
        await client.end();
      }
    },
    async close() {
      await db?.drop();
    },
  });
});
