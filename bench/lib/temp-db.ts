/**
 * Fresh, migrated database files in a temporary directory of their own, removed afterwards.
 * Not server/testing's tempHub: it keeps every bus event in an array, which grows with the run
 * and would distort the memory figure.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import { SAFETY_NET_PAGES, startCheckpointer } from "../../server/db/checkpointer.ts";
import { Database } from "../../server/db/database.ts";
import { migrate } from "../../server/db/migrate.ts";
import { Connection, SqliteAdapter } from "../../server/db/sqlite.ts";
import type { DomainDeps } from "../../server/domain/deps.ts";
import { EventBus } from "../../server/events/bus.ts";

export async function inTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-bench-"));
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** `sqlite`: the connections under `db`, for figures only SQLite has (file size, raw statements). */
export type BenchHub = DomainDeps & { sqlite: SqliteAdapter; close(): Promise<void> };

export function openHub(dir: string): BenchHub {
  const file = path.join(dir, "hub.db");
  migrate(file);
  // As the hub runs it: checkpoints on a background thread (server/db/checkpointer.ts).
  const bus = new EventBus();
  const sqlite = new SqliteAdapter(file, { backgroundCheckpoints: true });
  const db = new Database(sqlite, bus);
  return { db, bus, sqlite, close: () => db.close() };
}

/** A plain better-sqlite3 handle with the hub's pragmas and background checkpoints, so only the domain work differs. */
export function openRaw(dir: string): { raw: BetterSqlite3.Database; close(): void } {
  const file = path.join(dir, "raw.db");
  migrate(file);
  const conn = new Connection(file, { autoCheckpointPages: SAFETY_NET_PAGES });
  const checkpointer = startCheckpointer(file);
  return {
    raw: conn.raw,
    close: () => {
      checkpointer.stop();
      conn.close();
    },
  };
}
