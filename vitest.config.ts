import { defineConfig } from "vitest/config";

// Two projects: domain/unit tests need no dashboard build; e2e tests start real hubs, whose
// dashboard bundle the e2e global setup builds first when its sources changed.
export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 180_000,
    pool: "forks",
    projects: [
      { extends: true, test: { name: "unit", include: ["server/**/*.test.ts", "lib/**/*.test.ts"] } },
      { extends: true, test: { name: "e2e", include: ["e2e/**/*.test.ts"], globalSetup: ["e2e/global-setup.ts"] } },
    ],
  },
});
