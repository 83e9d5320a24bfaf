/**
 * A setup file of the `postgres` project: its test files see the cluster's URL as TEST_DATABASE_URL, which
 * ./temp-hub.ts reads. Set here rather than in the runner's environment so the other projects' workers keep SQLite.
 */
import { inject } from "vitest";

process.env.TEST_DATABASE_URL = inject("postgresUrl");
