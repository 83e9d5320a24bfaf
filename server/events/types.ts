/** The event log's types come from the catalog (lib/api/events.ts, docs/events.md). */
import type { EventType, PayloadOf } from "../../lib/api/events.ts";

export type { EventType, HubEvent, HubEventOf, PayloadOf } from "../../lib/api/events.ts";

/** What `tx.emit` appends: the payload is checked against the catalog's schema for `type`. */
export type NewEvent<K extends EventType = EventType> = {
  teamId: string | null;
  type: K;
  subject: string;
  payload: PayloadOf<K>;
};

/** The event a change was caused by: set when a pipeline action or a cascade writes. */
export type Cause = { eventId: number; depth: number };
