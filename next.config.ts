import type { NextConfig } from "next";

// Next options only. Runtime wiring (/ws, the scheduler, the domain services) lives in
// server/server.ts; route handlers reach the services through server/registry.ts.
const config: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  typescript: { tsconfigPath: "tsconfig.json" },
};

export default config;
