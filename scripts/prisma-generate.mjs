// `prisma generate` needs no schema engine, but the CLI looks for one at start-up and tries to
// download it when it is missing (impossible offline). Any existing file satisfies the lookup.
// Two clients: SQLite's (server/generated/prisma) and PostgreSQL's (server/generated/prisma-pg).
// Skipped when both were generated from these schemas by this Prisma (a stamp beside them): `npm pack` runs this
// again (`prepare`) after building, and rewriting the files then would race anything reading them.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";

const SCHEMAS = ["prisma/schema.prisma", "prisma/postgres/schema.prisma"];
const OUTPUTS = ["server/generated/prisma/client.ts", "server/generated/prisma-pg/client.ts"];
const STAMP = "server/generated/.schemas.sha256";

const hash = createHash("sha256").update(fs.readFileSync("node_modules/prisma/package.json"));
for (const schema of SCHEMAS) hash.update(fs.readFileSync(schema));
const digest = hash.digest("hex");
const current = OUTPUTS.every((f) => fs.existsSync(f)) && fs.existsSync(STAMP) && fs.readFileSync(STAMP, "utf8") === digest;

if (current && !process.argv.includes("--force")) {
  console.log("prisma-generate: the Prisma clients are current");
} else {
  const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath };
  for (const schema of SCHEMAS) {
    const r = spawnSync(process.execPath, ["node_modules/prisma/build/index.js", "generate", "--schema", schema], { stdio: "inherit", env });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
  fs.writeFileSync(STAMP, digest);
}
