/** The event log as `GET /api/events` reads it (docs/domain.md#event-log). */
import { z } from "zod";
import { IsoDate } from "./endpoint.ts";

// ── Responses ──

/** One event; `teamId` is null for hub-wide events (tokens). The payload stays an open object until the typed event catalog describes it per type. */
export const EventRecord = z.object({
  id: z.number().int(),
  teamId: z.string().nullable(),
  type: z.string(),
  subject: z.string(),
  payload: z.record(z.string(), z.unknown()),
  principal: z.string(),
  causedBy: z.number().int().nullable(),
  depth: z.number().int(),
  at: IsoDate,
});
export type EventRecord = z.output<typeof EventRecord>;

/** `lastId`: the last event read, hidden ones included, so a cursor moves past them too. */
export const EventPage = z.object({ events: z.array(EventRecord), lastId: z.number().int().nullable() });
export type EventPage = z.output<typeof EventPage>;
