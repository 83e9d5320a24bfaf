import type { Database } from "../db/database.ts";
import type { EventBus } from "../events/bus.ts";
import type { WorktreeCommandsPort } from "./worktrees/runnable-records.ts";

/**
 * What domain functions need from the composition root: the database, the bus on which
 * committed events arrive (for operations that wait for something to happen, such as an ask
 * waiting for its reply), and, in a hub, what runs work trees' commands (archive before a work tree goes).
 */
export type DomainDeps = { db: Database; bus: EventBus; commands?: WorktreeCommandsPort };
