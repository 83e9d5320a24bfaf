/** One row of the append-only event log, with its payload parsed. */
export type HubEvent = {
  id: number;
  /** null for hub-wide events (tokens), which belong to no team. */
  teamId: string | null;
  type: string;
  subject: string;
  payload: Record<string, unknown>;
  principal: string;
  causedBy: number | null;
  depth: number;
  at: Date;
};

export type NewEvent = {
  teamId: string | null;
  type: string;
  subject: string;
  payload: Record<string, unknown>;
};

/** The event a change was caused by: set when a pipeline action or a cascade writes. */
export type Cause = { eventId: number; depth: number };
