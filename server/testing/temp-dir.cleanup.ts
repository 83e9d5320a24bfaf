/**
 * A setup file: removes the temporary directories a test file made, and the PostgreSQL databases its hubs used.
 * Registered before the file's own hooks, so (after-hooks running in reverse) it runs last, once hubs and sessions are
 * stopped.
 */
import { afterAll } from "vitest";
import { removeTempDirs } from "./temp-dir.ts";

afterAll(async () => {
  // Loaded only for a run on PostgreSQL: the other files (the e2e ones above all) need none of the SQL layer. A run
  // that drops its databases at its end keeps them from file to file.
  if (process.env.TEST_DATABASE_URL && !process.env.TEST_DATABASE_RUN) await (await import("./postgres-pool.ts")).dropPostgresPool();
  removeTempDirs();
});
