import { defineConfig } from "prisma/config";

// Used by `prisma generate` (and by `prisma migrate deploy` where Prisma's native schema
// engine is available). The hub applies prisma/migrations itself at start: see server/db/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "file:./data/teamhub.db" },
});
