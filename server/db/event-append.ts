/**
 * Appending a transaction's events to the log: once, just before COMMIT, in as few statements as the database takes.
 * SQLite runs `appendEvents`; PostgreSQL writes the same rows into the message that commits (./postgres.ts).
 */
import type { Sql } from "./connection.ts";
import { multiRowReturning } from "./multi-row.ts";
import { raw, sql } from "./sql.ts";

/** An event as the log stores it: teamId, type, subject, payload (JSON text), principal, causedBy, depth, at. */
export type EventValues = [string | null, string, string, string, string, number | null, number, Date];

export const EVENT_COLUMNS = `"teamId","type","subject","payload","principal","causedBy","depth","at"`;

/**
 * Inserts the rows, a chunk a statement, and gives their ids in the order of `rows`. Both databases number a multi-row
 * VALUES in its order, one statement after another; neither promises RETURNING's order, so the ids are sorted.
 */
export async function appendEvents(s: Sql, rows: readonly EventValues[]): Promise<number[]> {
  const ids = await multiRowReturning<{ id: number }>(
    s,
    rows.map(
      ([teamId, type, subject, payload, principal, causedBy, depth, at]) =>
        sql`(${teamId},${type},${subject},${payload},${principal},${causedBy},${depth},${at})`,
    ),
    (values) => sql`INSERT INTO "Event" (${raw(EVENT_COLUMNS)}) VALUES ${values} RETURNING "id"`,
  );
  return sortedIds(ids);
}

export const sortedIds = (rows: ReadonlyArray<{ id: number }>) => rows.map((r) => r.id).sort((a, b) => a - b);
