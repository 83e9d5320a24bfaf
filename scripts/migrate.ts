/** `npm run db:migrate`: applies prisma/migrations to the hub's database (the hub also does this at start). */
import { readEnv } from "../server/env.ts";
import { migrate } from "../server/db/migrate.ts";

const env = readEnv();
const r = migrate(env.databaseFile);
console.log(
  `${env.databaseFile}: applied ${r.applied.length} migration(s)${r.applied.length ? ` (${r.applied.join(", ")})` : ""}, ${r.alreadyApplied} already applied`,
);
