/**
 * What the caller may do in a team (docs/dashboard.md#who-may): the dashboard shows an action only to those who may
 * take it and says who may otherwise. A view of the capability table, never a grant: each operation checks again.
 */
import { z } from "zod";
import { TeamParam } from "./common.ts";

export const TeamPermissionsInput = z.strictObject({ team: TeamParam });
export type TeamPermissionsInput = z.infer<typeof TeamPermissionsInput>;

/** One operation of the team as a whole (not one owned by a session, contract or pipeline): may the caller, and who may. */
export const Permission = z.object({ operation: z.string(), may: z.boolean(), who: z.string() });
export type Permission = z.output<typeof Permission>;

export const TeamPermissions = z.object({ team: z.string(), principal: z.string(), permissions: z.array(Permission) });
export type TeamPermissions = z.output<typeof TeamPermissions>;
