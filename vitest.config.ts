import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Tests that measure latency (under load, the canvas at 2,000 and 10,000 nodes): they run after
 * the others, one file at a time, on an otherwise quiet machine.
 */
const TIMING = [
  "e2e/security/load.test.ts",
  "e2e/security/web-load.test.ts",
  "e2e/security/webhooks-load.test.ts",
  "e2e/dashboard-canvas-scale.test.ts",
  "e2e/dashboard-canvas.test.ts",
];
/** Every project's temporary directories go in one root per run, checked empty at the end (see server/testing/temp-dir.ts). */
const TEMP_ROOT = "server/testing/temp-root.global.ts";

// Domain/unit tests need no dashboard build; e2e tests start real hubs, whose dashboard bundle the e2e global
// setup builds first when its sources changed. The attack reporter prints "N attacks, M succeeded" at the end.
export default defineConfig({
  // `import … from "teamhub"` in tests is the client library's source; the package's exports name its compiled dist/.
  resolve: { alias: { teamhub: path.resolve(import.meta.dirname, "lib/client/index.ts") } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // expect.poll waits for what a real hub, browser or CLI does next; its default second is less than a build or a
    // loaded machine takes, and a poll ends as soon as its condition holds, so a long limit costs a passing test nothing.
    expect: { poll: { timeout: 15_000 } },
    pool: "forks",
    // One file per core, not vitest's default of one fewer: an e2e file spends much of its time waiting on the hubs,
    // CLIs and browsers it started, so a 2-core machine finishes the suite in about 0.75 of the time with two.
    maxWorkers: os.availableParallelism(),
    setupFiles: ["server/testing/temp-dir.cleanup.ts"],
    reporters: ["default", "./e2e/security/attack-reporter.ts"],
    // `npx vitest run server --coverage`: how much of the domain and the SQL layer the tests run.
    coverage: {
      provider: "v8",
      include: ["server/domain/**", "server/db/**"],
      exclude: ["**/*.test.ts", "server/testing/**"],
      reporter: ["text-summary", "text"],
    },
    projects: [
      { extends: true, test: { name: "unit", include: ["server/**/*.test.ts", "lib/**/*.test.ts", "components/**/*.test.ts"], globalSetup: [TEMP_ROOT] } },
      { extends: true, test: { name: "e2e", include: ["e2e/**/*.test.ts"], exclude: TIMING, globalSetup: [TEMP_ROOT, "e2e/global-setup.ts"] } },
      {
        extends: true,
        test: { name: "timing", include: TIMING, globalSetup: [TEMP_ROOT, "e2e/global-setup.ts"], fileParallelism: false, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
