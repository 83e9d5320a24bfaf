import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";

/**
 * What domain functions need from the composition root: the database, and the bus on which
 * committed events arrive (for operations that wait for something to happen, such as an ask
 * waiting for its reply).
 */
export type DomainDeps = { db: Database; bus: EventBus };
