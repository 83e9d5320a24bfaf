import { z } from "zod";
import { MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

/** A lead grant (docs/security.md#capabilities): `name` may do the team-wide operations of `team`. */
export const LeadRefInput = z.object({ team: TeamParam, name: MemberName }).strict();
export type LeadRefInput = z.infer<typeof LeadRefInput>;

// ── Responses ──

export const LeadView = z.object({ team: z.string(), principal: z.string(), role: z.literal("lead"), grantedBy: z.string(), createdAt: IsoDate });
export type LeadView = z.output<typeof LeadView>;

export const LeadRevoked = z.object({ revoked: z.string(), team: z.string() });
