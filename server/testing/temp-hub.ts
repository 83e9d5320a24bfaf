/**
 * A real hub database in a temporary directory, migrated like production. Domain tests use it
 * directly; nothing is mocked.
 */
import fs from "node:fs";
import path from "node:path";
import { Database } from "../db/database.ts";
import { migrate } from "../db/migrate.ts";
import { tempDir } from "./temp-dir.ts";
import { EventBus } from "../events/bus.ts";
import type { HubEvent } from "../events/types.ts";
import type { DomainDeps } from "../domain/deps.ts";

/** Real time until a test moves it on: instead of sleeping through a window or a deadline, `advance` past it. */
export type TestClock = { now(): Date; advance(ms: number): void };

export type TempHub = DomainDeps & { bus: EventBus; dir: string; file: string; events: HubEvent[]; clock: TestClock; close(): void };

export function tempHub(): TempHub {
  const dir = tempDir("test");
  const file = path.join(dir, "hub.db");
  migrate(file);
  const bus = new EventBus();
  let offset = 0;
  const clock: TestClock = { now: () => new Date(Date.now() + offset), advance: (ms) => void (offset += ms) };
  const db = new Database(file, bus, { clock: clock.now });
  const events: HubEvent[] = [];
  bus.subscribe((e) => void events.push(...e));
  return {
    db,
    bus,
    dir,
    file,
    events,
    clock,
    close() {
      db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Every row of every table, for "nothing was written" assertions. */
export function snapshotTables(file: string): Record<string, unknown[]> {
  const db = new Database(file, new EventBus());
  try {
    const tables = db.reader.allSync<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`);
    return Object.fromEntries(tables.map((t) => [t.name, db.reader.allSync(`SELECT * FROM "${t.name}" ORDER BY rowid`)]));
  } finally {
    db.close();
  }
}
