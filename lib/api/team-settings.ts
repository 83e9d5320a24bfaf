import { z } from "zod";
import { TeamParam } from "./common.ts";

/**
 * Per-team options. Stored as JSON on the team row; every field has a default, so a team that
 * never set anything behaves as documented in the README.
 */
export const TeamSettings = z.object({
  /** Deliver a turn to an idle supervised session when its contract becomes ready or a message arrives (§2). */
  wake: z.enum(["on", "off"]).default("on"),
  /** Phase-gate enforcement for team_spawn batches (§9); plain spawns never count as batches. */
  gateEnforcement: z.enum(["on", "off"]).default("on"),
  /** §3: messages one sender may send per minute. */
  chatRateLimitPerMinute: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1).max(10_000).default(10),
  /** §3 loop guard: exchanges between one pair within `chatLoopWindowSeconds` before the pair is blocked. */
  chatLoopMaxExchanges: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1).max(10_000).default(5),
  chatLoopWindowSeconds: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1).max(3600).default(60),
  /** §3: newest messages kept live per inbox; older ones are archived (never deleted). */
  inboxLiveLimit: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(10).max(100_000).default(1000),
});
export type TeamSettings = z.infer<typeof TeamSettings>;

export const UpdateTeamSettingsInput = TeamSettings.partial().extend({ team: TeamParam }).strict();
export type UpdateTeamSettingsInput = z.infer<typeof UpdateTeamSettingsInput>;
