import fs from "node:fs";
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
  "e2e/dashboard-canvas-10000.test.ts",
  "e2e/dashboard-canvas-2000.test.ts",
];
/** Every project's temporary directories go in one root per run, checked empty at the end (see server/testing/temp-dir.ts). */
const TEMP_ROOT = "server/testing/temp-root.global.ts";
/** Real hubs run the dashboard build and dist/ of the current sources. */
const E2E_SETUP = [TEMP_ROOT, "e2e/global-setup.ts"];
/**
 * The suites that run again with the oldest supported Claude Code (docs/distribution.md#claude-code-versions): those
 * whose assertions rest on what the CLI itself does — its flags (resume, fork), its stream (results, costs, API
 * errors, permission requests, silence), where it finds credentials and writes its conversations, its tools in the
 * sandbox and a git work tree, its MCP client. The suites of the hub's own doors around sessions (its CLI's session
 * commands, the admission queue, runnable work trees' setup and run commands) ask of the CLI only what these do
 * already, start and take a turn, and run with the current release alone.
 */
const OLDEST = [
  "e2e/session-lifecycle.test.ts",
  "e2e/session-restart.test.ts",
  "e2e/session-truth.test.ts",
  "e2e/session-safety.test.ts",
  "e2e/session-health.test.ts",
  "e2e/session-credentials.test.ts",
  "e2e/session-sandbox.test.ts",
  "e2e/session-team.test.ts",
  "e2e/worktrees.test.ts",
];
/**
 * On PostgreSQL: the server tests that open a database, through `tempHub()` or the SQL layer's doors, and the two-hub
 * suite (which skips without it). The others (the supervisor's parsers, the HTTP guards, the docs' citations, …)
 * would run the same code a second time.
 */
const OPENS_A_DATABASE = /tempHub|TempHub|connectDatabase|migrateDatabase|TEST_DATABASE_URL/;
const POSTGRES = [
  ...fs
    .readdirSync(path.join(import.meta.dirname, "server"), { recursive: true, encoding: "utf8" })
    .map((f) => path.join("server", f))
    .filter((f) => f.endsWith(".test.ts") && OPENS_A_DATABASE.test(fs.readFileSync(path.join(import.meta.dirname, f), "utf8"))),
  "e2e/hubs-postgres.test.ts",
];

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
    // One file more than there are cores: an e2e file spends much of its time waiting on the hubs, CLIs and browsers
    // it started. On 2 cores, three files at once keep both busy (vmstat: 6% idle) where two left a quarter idle.
    maxWorkers: os.availableParallelism() + 1,
    setupFiles: ["server/testing/temp-dir.cleanup.ts"],
    reporters: ["default", "./e2e/security/attack-reporter.ts"],
    // `npx vitest run server --coverage`: how much of the domain and the SQL layer the tests run.
    coverage: {
      provider: "v8",
      include: ["server/domain/**", "server/db/**"],
      exclude: ["**/*.test.ts", "server/testing/**"],
      reporter: ["text-summary", "text"],
    },
    // `npm test` runs every project in one pool, so no suite waits for another's last file. Workers keep their modules
    // from file to file (isolate: false): a file's state is its own database, or the hubs and browsers it starts and
    // stops, and starting a process and importing again for each file was half of the domain suites' time and 0.45 s
    // of CPU an e2e file (docs/testing.md#processes).
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["server/**/*.test.ts", "lib/**/*.test.ts", "components/**/*.test.ts"], isolate: false, globalSetup: [TEMP_ROOT] },
      },
      {
        extends: true,
        test: { name: "e2e", include: ["e2e/**/*.test.ts"], exclude: [...TIMING, "e2e/hubs-postgres.test.ts"], isolate: false, globalSetup: E2E_SETUP },
      },
      { extends: true, test: { name: "oldest", include: OLDEST, env: { TEAMHUB_TEST_CLAUDE: "oldest" }, isolate: false, globalSetup: E2E_SETUP } },
      {
        extends: true,
        test: {
          name: "postgres",
          include: POSTGRES,
          isolate: false,
          setupFiles: ["server/testing/postgres-url.setup.ts"],
          globalSetup: [...E2E_SETUP, "server/testing/postgres-cluster.global.ts"],
        },
      },
      { extends: true, test: { name: "timing", include: TIMING, globalSetup: E2E_SETUP, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
