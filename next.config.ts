import type { NextConfig } from "next";

// Next options only: Next serves the dashboard's pages. Everything else (/api, /mcp, /ws, the scheduler, the
// domain services) lives in server/server.ts.
const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default config;
