/**
 * A setup file of the `postgres` project: its test files see the cluster's URL as TEST_DATABASE_URL, which
 * ./temp-hub.ts reads, and the run's tag as TEST_DATABASE_RUN, which lets ./postgres-pool.ts keep its databases from
 * file to file. Set here rather than in the runner's environment so the other projects' workers keep SQLite.
 */
import { inject } from "vitest";

process.env.TEST_DATABASE_URL = inject("postgresUrl");
process.env.TEST_DATABASE_RUN = inject("postgresRun");
