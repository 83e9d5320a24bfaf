/**
 * Prints the attack tally once, at the end of the whole run (every project's attacks together):
 * "N attacks, M succeeded", with the title of each attack that succeeded.
 */
import fs from "node:fs";
import type { Reporter } from "vitest/reporters";
import { attackLogPath, attackSummary } from "./attack.ts";

export default class AttackReporter implements Reporter {
  onInit(): void {
    // A log left by an earlier run that died under the same pid must not be counted.
    fs.rmSync(attackLogPath(), { force: true });
  }

  onTestRunEnd(): void {
    const summary = attackSummary(attackLogPath());
    if (summary) console.log(`\n[security] ${summary}`);
    fs.rmSync(attackLogPath(), { force: true });
  }
}
