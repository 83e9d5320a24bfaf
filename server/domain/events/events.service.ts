/** Reading the event log (docs/domain.md#event-log): catch-up after a cursor, or the newest events for a feed. */
import { z } from "zod";
import { jsonColumn, type EventRow } from "../../db/rows.ts";
import { EMPTY, inList, join, raw, sql } from "../../db/sql.ts";
import type { HubEvent } from "../../events/types.ts";
import { JsonValue } from "../../../lib/api/common.ts";
import { LoggedEvent, type EventList } from "../../../lib/api/events.ts";
import type { ListEventsInput } from "../../../lib/api/teams.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { eventFor } from "../auth/visibility.ts";

/** A row of the log, parsed through the catalog: a type it does not know or a payload that does not fit is refused. */
export function toHubEvent(r: EventRow): HubEvent {
  const parsed = LoggedEvent.safeParse({ ...r, payload: jsonColumn(JsonValue, r.payload) });
  if (!parsed.success) throw new Error(`event ${r.id} (${r.type}) does not fit the event catalog (lib/api/events.ts): ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/**
 * With `after`: the events that follow it, oldest first. Without: the newest, newest first. Each
 * event is shown as `actor` may see it (visibility.ts); `lastId` is the last one read, so a cursor
 * moves past the events hidden from the caller too.
 */
export async function listEvents({ db }: DomainDeps, actor: Principal, input: ListEventsInput): Promise<EventList> {
  const where = [input.hub ? sql`"teamId" IS NULL` : sql`"teamId" = ${input.team}`];
  if (input.type) where.push(sql`"type" = ${input.type}`);
  if (input.after !== undefined) where.push(sql`"id" > ${input.after}`);
  const order = raw(input.after !== undefined ? "ASC" : "DESC");
  const rows = await db.read(async (s) => {
    if (input.hub) await authorize(s, actor, "events.hub", { team: null });
    return s.all<EventRow>(sql`SELECT * FROM "Event" WHERE ${join(where, " AND ")} ORDER BY "id" ${order} LIMIT ${input.limit}`);
  });
  const events = rows.map(toHubEvent).flatMap((e) => eventFor(actor, e) ?? []);
  return { events, lastId: rows.length ? Math.max(...rows.map((r) => r.id)) : null };
}

/** Events after a cursor across the given teams (all when empty), oldest first: /ws catch-up. */
export async function eventsAfter({ db }: DomainDeps, input: { teams: string[]; after: number; limit: number }): Promise<HubEvent[]> {
  const teamFilter = input.teams.length ? sql`AND "teamId" IN ${inList(input.teams)}` : EMPTY;
  const rows = await db.read((s) => s.all<EventRow>(sql`SELECT * FROM "Event" WHERE "id" > ${input.after} ${teamFilter} ORDER BY "id" LIMIT ${input.limit}`));
  return rows.map(toHubEvent);
}

export async function lastEventId({ db }: DomainDeps): Promise<number> {
  return (await db.read((s) => s.get<{ id: number }>(sql`SELECT COALESCE(MAX("id"), 0) AS "id" FROM "Event"`)))!.id;
}
