import { z } from "zod";
import { MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";

/** A lead grant (docs/security.md#capabilities): `name` may do the team-wide operations of `team`. */
export const LeadRefInput = z.object({ team: TeamParam, name: MemberName }).strict();
export type LeadRefInput = z.infer<typeof LeadRefInput>;
