import { z } from "zod";
import { IsoDate } from "./endpoint.ts";

/** A hub process sharing the database (docs/hubs.md). */
export const HubView = z.object({
  id: z.string(),
  url: z.string(),
  host: z.string(),
  pid: z.number().int(),
  version: z.string(),
  /** live: beating; stopped: shut down cleanly; lost: its heartbeat stopped and another hub interrupted its sessions. */
  status: z.enum(["live", "stopped", "lost"]),
  startedAt: IsoDate,
  heartbeatAt: IsoDate,
  stoppedAt: IsoDate.nullable(),
  /** Sessions it runs now (holding or about to start a process). */
  liveSessions: z.number().int(),
  /** The hub that answered this request. */
  self: z.boolean(),
});
export type HubView = z.output<typeof HubView>;
