/**
 * Publishes, on this process's bus, events that another process committed to the same database
 * (`teamhub mcp` over stdio, a second hub), so /ws clients, pipelines and MCP subscribers see
 * every change whoever made it. Events this process committed itself are already on the bus.
 */
import type { Database } from "../db/database.ts";
import type { EventRow } from "../db/rows.ts";
import { toHubEvent } from "../domain/events/events.service.ts";
import type { EventBus } from "./bus.ts";
import type { HubEvent } from "./types.ts";

export async function startLogTailer(db: Database, bus: EventBus, intervalMs = 250) {
  let last = (await db.read((sql) => sql.get<{ id: number }>(`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`)))!.id;
  const local = new Set<number>();
  const unsubscribe = bus.subscribe((events) => {
    for (const e of events) if (e.id > last) local.add(e.id);
  });
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const rows = await db.read((sql) => sql.all<EventRow>(`SELECT * FROM "Event" WHERE "id" > ? ORDER BY "id" LIMIT 1000`, [last]));
      if (rows.length === 0) return;
      const foreign = rows.filter((r) => !local.has(r.id)).flatMap(readable);
      last = rows[rows.length - 1].id;
      for (const id of local) if (id <= last) local.delete(id);
      bus.publish(foreign);
    } catch (e) {
      console.error("[teamhub] reading the event log for other processes' changes failed:", e);
    } finally {
      busy = false;
    }
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      unsubscribe();
    },
  };
}

/** An event the catalog refuses (written by a different version of the hub) is skipped, not retried forever. */
function readable(row: EventRow): HubEvent[] {
  try {
    return [toHubEvent(row)];
  } catch (e) {
    console.error("[teamhub] skipping an event of another process:", e);
    return [];
  }
}
