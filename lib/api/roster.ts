import { z } from "zod";
import { MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

export const MemberStatus = z.enum(["idle", "busy", "waiting", "offline"]);

export const UpsertMemberInput = z.object({
  team: TeamParam,
  name: MemberName,
  role: z.string().max(200).optional(),
  status: MemberStatus.optional(),
  currentTask: z.string().max(500).nullable().optional(),
});
export type UpsertMemberInput = z.infer<typeof UpsertMemberInput>;

// ── Responses ──

export const MemberView = z.object({
  name: z.string(),
  role: z.string(),
  status: MemberStatus,
  currentTask: z.string().nullable(),
  /** The supervised session that keeps this member current, if any. */
  sessionId: z.string().nullable(),
  joinedAt: IsoDate,
  lastSeen: IsoDate,
});
export type MemberView = z.output<typeof MemberView>;
