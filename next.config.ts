import type { NextConfig } from "next";

// Next options only: Next serves the dashboard's pages. Everything else (/api, /mcp, /ws, the scheduler, the
// domain services) lives in server/server.ts.
const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // The type check is `npm run typecheck` (tsc over the whole project, .next/types included once a build wrote them),
  // which CI runs after the build: checking again inside `next build` took two thirds of its time (36 s → 12 s).
  typescript: { tsconfigPath: "tsconfig.json", ignoreBuildErrors: true },
  // A page's code is loaded when it is first asked for, not every page's at start: a hub that serves no page (an
  // agent's, a test's) saves about 0.1 s of CPU and the memory those modules hold.
  experimental: { preloadEntriesOnStart: false },
};

export default config;
