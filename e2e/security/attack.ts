/**
 * One attack, one test (docs/security.md). `attack` runs the attack through a real door and its
 * assertions prove it failed and changed nothing; the outcome is tallied in a file the e2e global
 * setup names, and attack-reporter.ts ends the run with "N attacks, 0 succeeded" (a failed assertion
 * is an attack that succeeded).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { inject, it } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    attackLog: string;
  }
}

export function attack(title: string, fn: () => Promise<void>, timeoutMs?: number): void {
  it(
    `attack: ${title}`,
    async () => {
      let held = false;
      try {
        await fn();
        held = true;
      } finally {
        fs.appendFileSync(inject("attackLog"), `${JSON.stringify({ title, held })}\n`);
      }
    },
    timeoutMs,
  );
}

/** Where this run's attacks are tallied: named by the pid of vitest's main process, where the global setups and reporters run. */
export const attackLogPath = (pid = process.pid) => path.join(os.tmpdir(), `teamhub-attacks-${pid}.jsonl`);

/** The tally line printed at the end of the run; null when no attack ran. */
export function attackSummary(log: string): string | null {
  if (!fs.existsSync(log)) return null;
  const rows = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { title: string; held: boolean });
  if (!rows.length) return null;
  const succeeded = rows.filter((r) => !r.held);
  return [`${rows.length} attacks, ${succeeded.length} succeeded`, ...succeeded.map((r) => `  succeeded: ${r.title}`)].join("\n");
}
