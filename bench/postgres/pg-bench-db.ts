/** A fresh, migrated database on BENCH_PG_URL's server for one figure, dropped afterwards. */
import type { Database } from "../../server/db/database.ts";
import { migratePostgres } from "../../server/db/migrate-postgres.ts";
import { connectDatabase } from "../../server/db/open.ts";
import { scratchDatabase } from "../../server/db/scratch-database.ts";
import type { DomainDeps } from "../../server/domain/deps.ts";
import { EventBus } from "../../server/events/bus.ts";

export async function onPostgres(server: string, label: string, run: (url: string) => Promise<void>): Promise<void> {
  const scratch = await scratchDatabase(server, label);
  try {
    await migratePostgres(scratch.url);
    await run(scratch.url);
  } finally {
    await scratch.drop();
  }
}

/** A hub's database connection on `url`: its own pool and bus, as one hub process has. */
export function pgHub(url: string, hub?: string): DomainDeps & { db: Database } {
  const bus = new EventBus();
  return { db: connectDatabase({ kind: "postgres", url }, bus, { hub }), bus };
}
