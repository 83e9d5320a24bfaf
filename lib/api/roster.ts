import { z } from "zod";
import { MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";

export const MemberStatus = z.enum(["idle", "busy", "waiting", "offline"]);

export const UpsertMemberInput = z.object({
  team: TeamParam,
  name: MemberName,
  role: z.string().max(200).optional(),
  status: MemberStatus.optional(),
  currentTask: z.string().max(500).nullable().optional(),
});
export type UpsertMemberInput = z.infer<typeof UpsertMemberInput>;
