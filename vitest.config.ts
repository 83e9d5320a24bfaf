import { defineConfig } from "vitest/config";

// Two projects: domain/unit tests need no dashboard build; e2e tests start real hubs, whose
// dashboard bundle the e2e global setup builds first when its sources changed.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    // `npx vitest run server --coverage`: how much of the domain and the SQL layer the tests run.
    coverage: {
      provider: "v8",
      include: ["server/domain/**", "server/db/**"],
      exclude: ["**/*.test.ts", "server/testing/**"],
      reporter: ["text-summary", "text"],
    },
    projects: [
      { extends: true, test: { name: "unit", include: ["server/**/*.test.ts", "lib/**/*.test.ts", "components/**/*.test.ts"] } },
      { extends: true, test: { name: "e2e", include: ["e2e/**/*.test.ts"], globalSetup: ["e2e/global-setup.ts"] } },
    ],
  },
});
