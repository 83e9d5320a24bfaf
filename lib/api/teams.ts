import { z } from "zod";
import { TeamId } from "../ids.ts";
import { Cursor, Flag, Limit, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

export const CreateTeamInput = z.object({ id: TeamId });
export const TeamRefInput = z.object({ team: TeamParam });
export type TeamRefInput = z.infer<typeof TeamRefInput>;

export const ListEventsInput = z.object({
  team: TeamParam,
  /** Only events with an id greater than this (for catching up after a reconnect). */
  after: Cursor,
  type: z.string().max(64).optional(),
  /** The hub-wide events (tokens issued and revoked) instead of a team's. */
  hub: Flag.default(false),
  limit: Limit,
});
export type ListEventsInput = z.infer<typeof ListEventsInput>;

// ── Responses ──

export const TeamView = z.object({
  id: z.string(),
  createdAt: IsoDate,
  /** Archived teams stay readable and refuse changes. */
  archivedAt: IsoDate.nullable(),
  /** The options the team set itself, as stored; `teams.settings` answers them with the defaults filled in. */
  settings: z.record(z.string(), z.unknown()),
});
export type TeamView = z.output<typeof TeamView>;

/** What the Quick Start demo made: its contracts with their status after the chain ran, and the versions published (`id@vN`). */
export const QuickStartDemo = z.object({
  team: z.string(),
  contracts: z.array(z.object({ id: z.string(), status: z.string() })),
  artifacts: z.array(z.string()),
});
export type QuickStartDemo = z.output<typeof QuickStartDemo>;
