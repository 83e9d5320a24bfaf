/** Two hub processes on one SQLite file (docs/hubs.md): the suite of e2e/helpers/two-hubs.ts. */
import path from "node:path";
import { tempDir } from "../server/testing/temp-dir.ts";
import { query } from "./helpers/db-snapshot.ts";
import { twoHubsSuite } from "./helpers/two-hubs.ts";

let file = "";
twoHubsSuite({
  name: "SQLite",
  async open() {
    file = path.join(tempDir("shared-db"), "teamhub.db");
  },
  url: () => `file:${file}`,
  query: async <T>(sql: string) => query<T>(file, sql),
  async close() {},
});
