/**
 * The temporary directories tests make: every one goes through `tempDir`, which remembers it, and
 * `temp-dir.cleanup.ts` removes a test file's directories once its own afterAll hooks (which stop
 * the hubs and sessions writing into them) have run. Under vitest they live in this run's root
 * (`temp-root.global.ts`), whose teardown fails the run when a directory was left behind.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const TEMP_ROOT_VAR = "TEAMHUB_TEST_TMP";

const made = new Set<string>();

export function tempDir(label: string): string {
  const dir = fs.mkdtempSync(path.join(process.env[TEMP_ROOT_VAR] ?? os.tmpdir(), `teamhub-${label}-`));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  // A hub just stopped may still be closing files in its data directory: retry briefly rather than leave it.
  for (const dir of made) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  made.clear();
}
