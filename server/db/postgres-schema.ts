/**
 * prisma/postgres/schema.prisma is prisma/schema.prisma for PostgreSQL: the same models, another
 * datasource and client output. It is generated (`npm run db:migration`), never edited, and a
 * test fails when it is stale. The models need no PostgreSQL-specific attributes: Prisma's
 * defaults (text, integer, double precision, boolean, bytea, timestamp(3)) hold what SQLite holds.
 */
import path from "node:path";
import { PG_MIGRATIONS_DIR } from "./migrate-postgres.ts";

export const PG_SCHEMA_FILE = path.resolve(PG_MIGRATIONS_DIR, "../schema.prisma");

const HEADER = `// GENERATED from prisma/schema.prisma by \`npm run db:migration\` (server/db/postgres-schema.ts): do not edit.
// The same models on PostgreSQL (DATABASE_URL=postgres://…); see docs/postgres.md.
`;

export function postgresSchema(sqliteSchema: string): string {
  const replace = (text: string, from: RegExp, to: string) => {
    if (!from.test(text)) throw new Error(`prisma/schema.prisma: expected ${from} to turn it into the PostgreSQL schema`);
    return text.replace(from, to);
  };
  let schema = replace(sqliteSchema, /(datasource db \{\s*provider\s*=\s*)"sqlite"/, '$1"postgresql"');
  schema = replace(schema, /(output\s*=\s*)"\.\.\/server\/generated\/prisma"/, '$1"../../server/generated/prisma-pg"');
  return HEADER + schema;
}
