import { z } from "zod";
import { TeamParam } from "./common.ts";
import { MAX_COST_USD, Preset, SAFETY_DEFAULTS } from "./sessions.ts";
import { Isolation } from "./worktrees.ts";
import { RunnableConfig } from "./runnable.ts";

/**
 * A whole number in [min, max]. Each bound carries its own message: without one, zod v4 reports a
 * bound with the schema's `error` ("must be a number"), which is wrong for 5 where 10 is the minimum.
 */
const Whole = (min: number, max: number) =>
  z
    .number({ error: "must be a number" })
    .int({ error: "must be a whole number" })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

/** Each option's rule, without its default: a partial update must leave what it does not name alone. */
const Options = {
  wake: z.enum(["on", "off"]),
  gateEnforcement: z.enum(["on", "off"]),
  chatRateLimitPerMinute: Whole(1, 10_000),
  chatLoopMaxExchanges: Whole(1, 10_000),
  chatLoopWindowSeconds: Whole(1, 3600),
  inboxLiveLimit: Whole(10, 100_000),
  maxPreset: Preset,
  rootDir: z
    .string({ error: "must be a string" })
    .max(4096)
    .refine((p) => p.startsWith("/"), { error: "must be an absolute path" })
    .nullable(),
  maxCostUsd: z
    .number({ error: "must be a number" })
    .positive({ error: "must be more than 0" })
    .max(MAX_COST_USD, { error: `must be at most ${MAX_COST_USD}` }),
  maxTurns: Whole(1, 10_000),
  maxTimeoutMs: Whole(1000, 24 * 3600 * 1000),
  isolation: Isolation,
  memberIsolation: Isolation,
  worktree: RunnableConfig.nullable(),
};

/**
 * Per-team options. Stored as JSON on the team row; every field has a default, so a team that
 * never set anything behaves as documented (docs/domain.md#teams).
 */
export const TeamSettings = z.object({
  /** Deliver a turn to an idle supervised session when its contract becomes ready or a message arrives (docs/domain.md#wake-ups). */
  wake: Options.wake.default("on"),
  /** Phase-gate enforcement for team_spawn batches (docs/domain.md#gate-enforcement); plain spawns never count as batches. */
  gateEnforcement: Options.gateEnforcement.default("on"),
  /** Messages one sender may send per minute (docs/domain.md#chat-limits). */
  chatRateLimitPerMinute: Options.chatRateLimitPerMinute.default(10),
  /** Loop guard (docs/domain.md#chat-limits): exchanges between one pair within `chatLoopWindowSeconds` before the pair is blocked. */
  chatLoopMaxExchanges: Options.chatLoopMaxExchanges.default(5),
  chatLoopWindowSeconds: Options.chatLoopWindowSeconds.default(60),
  /** Newest messages kept live per inbox; older ones are archived, never deleted (docs/domain.md#chat). */
  inboxLiveLimit: Options.inboxLiveLimit.default(1000),
  /**
   * The widest preset a member token (not a lead) may give a session it spawns. Presets are
   * ordered read-only = plan < review < edit < full.
   */
  maxPreset: Options.maxPreset.default("edit"),
  /** Members spawn only inside this directory (real paths); null is the hub's session work dir (docs/security.md#capabilities). */
  rootDir: Options.rootDir.default(null),
  /** The most a member may give a session it spawns: cost (safety.maxCostUsd and maxBudgetUsd), turns, time per interaction (docs/security.md#capabilities). */
  maxCostUsd: Options.maxCostUsd.default(SAFETY_DEFAULTS.maxCostUsd),
  maxTurns: Options.maxTurns.default(SAFETY_DEFAULTS.maxTurns),
  maxTimeoutMs: Options.maxTimeoutMs.default(SAFETY_DEFAULTS.timeoutMs),
  /** Spawns, batches and delegates whose work dir is in a git repository: a work tree of their own, or the work dir shared (docs/worktrees.md). */
  isolation: Options.isolation.default("shared"),
  /** The same for team members (team_spawn): by default each gets its own work tree, so parallel members never write over each other. */
  memberIsolation: Options.memberIsolation.default("worktree"),
  /** What makes work trees runnable where the repository has no teamhub.json (docs/worktrees.md#runnable-work-trees). */
  worktree: Options.worktree.default(null),
});
export type TeamSettings = z.infer<typeof TeamSettings>;

// Built from the rules without defaults: `TeamSettings.partial()` would still fill in every default,
// so changing one option would reset all the others.
export const UpdateTeamSettingsInput = z.object(Options).partial().extend({ team: TeamParam }).strict();
export type UpdateTeamSettingsInput = z.infer<typeof UpdateTeamSettingsInput>;
