import type { Database } from "../db/database.ts";

/** What domain functions need from the composition root. */
export type DomainDeps = { db: Database };
