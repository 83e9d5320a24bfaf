import BetterSqlite3 from "better-sqlite3";
import { expect } from "vitest";

/**
 * Every row of every table, read through a separate read-only connection (the hub may be running). A hub's heartbeat
 * is left out: it moves on its own every few seconds (docs/hubs.md), whatever a request did.
 */
export function dbSnapshot(file: string): Record<string, unknown[]> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[];
    const rows = (name: string) => db.prepare(name === "Hub" ? `SELECT * FROM "Hub" ORDER BY "id"` : `SELECT * FROM "${name}" ORDER BY rowid`).all();
    const withoutHeartbeat = (row: unknown) => ({ ...(row as Record<string, unknown>), heartbeatAt: null });
    return Object.fromEntries(tables.map((t) => [t.name, t.name === "Hub" ? rows(t.name).map(withoutHeartbeat) : rows(t.name)]));
  } finally {
    db.close();
  }
}

export type DbSnapshot = Record<string, unknown[]>;

/** Runs `fn` and proves the database (or the part `view` picks of it) is as it was before. */
export async function expectDbUnchanged(file: string, fn: () => Promise<void>, view: (snapshot: DbSnapshot) => unknown = (s) => s): Promise<void> {
  const before = view(dbSnapshot(file));
  await fn();
  expect(view(dbSnapshot(file))).toEqual(before);
}

export function query<T>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
