/**
 * A global setup: gives this run a temporary root of its own for `tempDir`, and fails the run when
 * a test left a directory in it. Several projects share one vitest process, so the first to start
 * makes the root and the last to finish checks it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TEMP_ROOT_VAR } from "./temp-dir.ts";

const USERS_VAR = `${TEMP_ROOT_VAR}_USERS`;

export function setup() {
  process.env[TEMP_ROOT_VAR] ??= fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-run-"));
  process.env[USERS_VAR] = String(Number(process.env[USERS_VAR] ?? 0) + 1);
}

export function teardown() {
  const users = Number(process.env[USERS_VAR]) - 1;
  process.env[USERS_VAR] = String(users);
  const root = process.env[TEMP_ROOT_VAR];
  if (users > 0 || !root) return;
  delete process.env[TEMP_ROOT_VAR];
  const left = fs.readdirSync(root);
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  if (!left.length) return;
  // Vitest reports an error thrown here but still exits 0: set the exit code as well.
  process.exitCode = 1;
  throw new Error(`tests left ${left.length} temporary directories behind (removed now): ${left.join(", ")}`);
}
