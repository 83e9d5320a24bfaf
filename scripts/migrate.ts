/** `npm run db:migrate`: applies prisma/migrations to the hub's database (the hub also does this at start). */
import { readEnv } from "../server/env.ts";
import { describeLocation, migrateDatabase } from "../server/db/open.ts";

const env = readEnv();
const r = await migrateDatabase(env.database);
console.log(
  `${describeLocation(env.database)}: applied ${r.applied.length} migration(s)${r.applied.length ? ` (${r.applied.join(", ")})` : ""}, ${r.alreadyApplied} already applied`,
);
