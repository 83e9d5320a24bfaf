/**
 * A global setup for the `postgres` project: the domain suite and the two-hub suite run on a throwaway PostgreSQL
 * cluster (scripts/pg-cluster.sh) started before them and removed after, or on TEST_DATABASE_URL's server when one is
 * given. The URL reaches that project's test files alone (./postgres-url.setup.ts): the other projects keep SQLite.
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { dropScratchDatabases } from "../db/scratch-database.ts";

const SCRIPT = path.resolve(import.meta.dirname, "../../scripts/pg-cluster.sh");

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
    /** Tags the databases the run's test files make, which the run drops at its end (./postgres-pool.ts). */
    postgresRun: string;
  }
}

export default function setup(project: TestProject) {
  const run = randomBytes(4).toString("hex");
  project.provide("postgresRun", run);
  const given = process.env.TEST_DATABASE_URL;
  if (given) {
    project.provide("postgresUrl", given);
    return () => dropScratchDatabases(given, run);
  }
  const cluster = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-pg-"));
  const stop = () => execFileSync(SCRIPT, ["stop", cluster], { stdio: "inherit" });
  try {
    project.provide("postgresUrl", execFileSync(SCRIPT, ["start", cluster], { encoding: "utf8" }).trim());
  } catch (e) {
    stop();
    throw new Error(
      `the postgres project needs PostgreSQL's server (Debian: apt-get install postgresql), or TEST_DATABASE_URL naming one: ${(e as Error).message}`,
      { cause: e },
    );
  }
  return stop;
}
