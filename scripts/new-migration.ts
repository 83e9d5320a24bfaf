/**
 * `npm run db:migration -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql
 * with the SQL that brings the existing migrations up to prisma/schema.prisma.
 */
import fs from "node:fs";
import path from "node:path";
import { MIGRATIONS_DIR } from "../server/db/migrate.ts";
import { diffMigrationsToSchema } from "../server/db/schema-diff.ts";

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: npm run db:migration -- <name>   (name: lowercase letters, digits, _)");
  process.exit(2);
}
const sql = await diffMigrationsToSchema();
if (!sql) {
  console.log("schema.prisma and prisma/migrations already agree; nothing to write");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
const dir = path.join(MIGRATIONS_DIR, `${stamp}_${name}`);
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, "migration.sql"), sql);
console.log(`wrote ${path.relative(process.cwd(), dir)}/migration.sql`);
