import { z } from "zod";
import { TeamId } from "../ids.ts";
import { Cursor, Limit, TeamParam } from "./common.ts";

export const CreateTeamInput = z.object({ id: TeamId });
export const TeamRefInput = z.object({ team: TeamParam });

export const ListEventsInput = z.object({
  team: TeamParam,
  /** Only events with an id greater than this (for catching up after a reconnect). */
  after: Cursor,
  type: z.string().max(64).optional(),
  limit: Limit,
});
export type ListEventsInput = z.infer<typeof ListEventsInput>;
