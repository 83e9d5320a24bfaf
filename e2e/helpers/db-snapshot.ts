import BetterSqlite3 from "better-sqlite3";

/** Every row of every table, read through a separate read-only connection (the hub may be running). */
export function dbSnapshot(file: string): Record<string, unknown[]> {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as { name: string }[];
    return Object.fromEntries(tables.map((t) => [t.name, db.prepare(`SELECT * FROM "${t.name}" ORDER BY rowid`).all()]));
  } finally {
    db.close();
  }
}

export function query<T>(file: string, sql: string, ...params: unknown[]): T[] {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
