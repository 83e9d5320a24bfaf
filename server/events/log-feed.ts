/**
 * Puts the event log on this process's bus in commit order, whoever committed it (docs/hubs.md#events): this process's
 * own commits as they happen, and those of other processes on the same database (another hub, `teamhub mcp` over
 * stdio) as they are found. Event ids grow in commit order (docs/hubs.md#events), so the bus carries ids in
 * increasing order: before this process's commit is published, any other process's events with smaller ids (already
 * committed) are read and published first. A /ws client, the pipeline runner and a waiting `ask` see one order.
 */
import type { Database } from "../db/database.ts";
import type { EventRow } from "../db/rows.ts";
import { raw, sql } from "../db/sql.ts";
import { toHubEvent } from "../domain/events/events.service.ts";
import type { EventBus } from "./bus.ts";
import type { HubEvent } from "./types.ts";

const PAGE = 1000;
const PAGE_ROWS = raw(String(PAGE));

export async function startLogFeed(db: Database, bus: EventBus, intervalMs = 250) {
  let last = (await db.read((s) => s.get<{ id: number }>(sql`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`)))!.id;
  let chain: Promise<void> = Promise.resolve();
  let queued = 0;
  let stopped = false;

  const deliver = (events: HubEvent[], through: number) => {
    last = Math.max(last, through);
    bus.publish(events);
  };
  /** Other processes' events after `last` (and before `below`, when given), a page at a time. */
  const catchUp = async (below?: number) => {
    for (;;) {
      const rows = await db.read((s) =>
        below === undefined
          ? s.all<EventRow>(sql`SELECT * FROM "Event" WHERE "id" > ${last} ORDER BY "id" LIMIT ${PAGE_ROWS}`)
          : s.all<EventRow>(sql`SELECT * FROM "Event" WHERE "id" > ${last} AND "id" < ${below} ORDER BY "id" LIMIT ${PAGE_ROWS}`),
      );
      if (rows.length === 0) return;
      deliver(rows.flatMap(readable), rows[rows.length - 1].id);
      if (rows.length < PAGE) return;
    }
  };
  const serially = (step: () => Promise<void>): Promise<void> => {
    queued++;
    const run = chain.then(step).finally(() => queued--);
    chain = run.catch((e) => console.error("[teamhub] reading the event log failed:", e));
    return chain;
  };

  // This process's commits: published at once when nothing of another process's can come before them.
  db.onCommitted((events) => {
    if (events.length === 0) return;
    if (queued === 0 && events[0].id === last + 1) return deliver([...events], events[events.length - 1].id);
    return serially(async () => {
      await catchUp(events[0].id);
      deliver(
        events.filter((e) => e.id > last),
        events[events.length - 1].id,
      );
    });
  });

  const timer = setInterval(() => {
    if (queued === 0 && !stopped) void serially(() => catchUp());
  }, intervalMs);
  timer.unref();
  // Where the database pushes (PostgreSQL's NOTIFY), another process's commit is read as soon as it is announced. An
  // announcement that arrives while a read still waits to start is covered by that read: a burst costs one or two.
  let readWaiting = false;
  const unlisten = await db.adapter.listen?.(() => {
    if (readWaiting || stopped) return;
    readWaiting = true;
    void serially(() => ((readWaiting = false), catchUp()));
  });
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      db.onCommitted(null);
      await unlisten?.();
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
