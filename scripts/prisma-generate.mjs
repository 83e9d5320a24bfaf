// `prisma generate` needs no schema engine, but the CLI looks for one at start-up and tries to
// download it when it is missing (impossible offline). Any existing file satisfies the lookup.
// Two clients: SQLite's (server/generated/prisma) and PostgreSQL's (server/generated/prisma-pg).
import { spawnSync } from "node:child_process";

const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath };
for (const schema of ["prisma/schema.prisma", "prisma/postgres/schema.prisma"]) {
  const r = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate", "--schema", schema], { stdio: "inherit", env });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
