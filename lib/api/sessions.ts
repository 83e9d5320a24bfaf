/**
 * Sessions (docs/domain.md#sessions): supervised `claude` processes. Every door (HTTP, MCP, CLI) parses with these.
 */
import { z } from "zod";
import { MemberName, TeamId } from "../ids.ts";
import { Cursor, Flag, Limit, TeamParam } from "./common.ts";

export const SESSION_STATUSES = ["queued", "starting", "idle", "busy", "waiting_permission", "paused", "stopped", "interrupted", "failed", "killed"] as const;
export const SessionStatus = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatus>;
/**
 * Live: the hub holds (or is starting, or waits to admit) the process. Ended: it is gone; resumable
 * with a Claude session id. `queued` waits for a place under the admission limit (docs/security.md#admission).
 */
export const LIVE_STATUSES: readonly SessionStatus[] = ["queued", "starting", "idle", "busy", "waiting_permission", "paused"];
export const ENDED_STATUSES: readonly SessionStatus[] = ["stopped", "interrupted", "failed", "killed"];

export const PRESETS = ["read-only", "review", "edit", "full", "plan"] as const;
export const Preset = z.enum(PRESETS, { error: `must be one of ${PRESETS.join(", ")}` });
export type Preset = z.infer<typeof Preset>;

export const SessionName = MemberName;
const Text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });
export const Prompt = Text(100_000);
/** Aliases (sonnet, opus, haiku) or full model ids; the CLI sends unknown names verbatim. */
const Model = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:\-[\]]{0,99}$/, { error: "must be a model alias or id such as 'sonnet' or 'claude-sonnet-5'" });
/** Tool permission rules the hub's policy allows without asking: `Edit`, `Bash(npm test:*)`, `mcp__server__tool`. */
const ToolRule = z
  .string()
  .regex(/^[A-Za-z0-9_.*-]+(\([^()\n]{1,500}\))?$/, { error: "must be a tool name, optionally with a rule in parentheses, e.g. 'Bash(npm test:*)'" });
const WorkDir = z
  .string()
  .min(1)
  .max(4096)
  .refine((p) => p.startsWith("/"), { error: "must be an absolute path" });

export const MAX_COST_USD = 10_000;
export const DEFAULT_APPROVAL_TIMEOUT_MS = 5 * 60 * 1000;
export const Safety = z.object({
  /** false switches the whole net off (no cost, turn or time limits; protected paths still denied). */
  enabled: z.boolean().default(true),
  maxCostUsd: z.number().positive().max(MAX_COST_USD).default(2),
  maxTurns: z.number().int().min(1).max(10_000).default(50),
  /** Limit per interaction. */
  timeoutMs: z
    .number()
    .int()
    .min(1000)
    .max(24 * 3600 * 1000)
    .default(5 * 60 * 1000),
  /** Added to the built-in protected paths (.env*, .git/, node_modules/, credentials/). */
  protectedPaths: z.array(z.string().min(1).max(500)).max(100).default([]),
});
export type Safety = z.infer<typeof Safety>;
/** The safety net a session gets when it asks for nothing; team limits default to the same. */
export const SAFETY_DEFAULTS = Safety.parse({});

export const SpawnInput = z
  .object({
    team: TeamParam,
    name: SessionName,
    /** First message; without one the session starts idle. */
    prompt: Prompt.optional(),
    model: Model.optional(),
    workDir: WorkDir.optional(),
    preset: Preset.default("edit"),
    allowedTools: z.array(ToolRule).max(100).default([]),
    systemPrompt: Text(20_000).optional(),
    agent: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { error: "must be an agent name" })
      .optional(),
    maxBudgetUsd: z.number().positive().max(MAX_COST_USD).optional(),
    maxTurns: z.number().int().min(1).max(10_000).optional(),
    safety: Safety.partial().optional(),
    /** How long a permission request waits for a person before it is denied. */
    approvalTimeoutMs: z
      .number()
      .int()
      .min(1000)
      .max(24 * 3600 * 1000)
      .default(DEFAULT_APPROVAL_TIMEOUT_MS),
  })
  .strict();
export type SpawnInput = z.infer<typeof SpawnInput>;

export const SessionRef = z.object({ name: SessionName }).strict();
export type SessionRef = z.infer<typeof SessionRef>;

/** Waiting is opt-in over HTTP and the default for agents, who want the answer in the tool result. */
const Wait = z.object({
  wait: Flag.default(false),
  waitTimeoutMs: z
    .number()
    .int()
    .min(100)
    .max(3600 * 1000)
    .default(10 * 60 * 1000),
});

export const SendInput = SessionRef.extend({ message: Prompt }).extend(Wait.shape).strict();
export type SendInput = z.infer<typeof SendInput>;

/** Stop and kill wait for the process to end unless told not to. */
export const EndSessionInput = SessionRef.extend({ wait: Flag.default(true), waitTimeoutMs: z.number().int().min(100).max(600_000).default(60_000) }).strict();
export type EndSessionInput = z.infer<typeof EndSessionInput>;

export const ForkInput = SessionRef.extend({ newName: SessionName, prompt: Prompt.optional(), model: Model.optional() }).strict();
export type ForkInput = z.infer<typeof ForkInput>;

export const ListSessionsInput = z.object({ team: TeamParam.optional(), status: SessionStatus.optional(), limit: Limit }).strict();
export type ListSessionsInput = z.infer<typeof ListSessionsInput>;

export const HistoryInput = SessionRef.extend({ limit: Limit }).strict();
export const TranscriptInput = SessionRef.extend({ after: Cursor, limit: Limit }).strict();
export type TranscriptInput = z.infer<typeof TranscriptInput>;

/** Without `team`, every team's ended sessions (operator only); with it, that team's (its leads may too). */
export const CleanupInput = z.object({ days: z.number().int().min(0).max(3650), team: TeamId.optional() }).strict();
export type CleanupInput = z.infer<typeof CleanupInput>;

export const BatchSpawnInput = z.object({ sessions: z.array(SpawnInput).min(1).max(50) }).strict();
export type BatchSpawnInput = z.infer<typeof BatchSpawnInput>;

export const DecideApprovalInput = SessionRef.extend({
  approvalId: z.number().int().min(1),
  decision: z.enum(["allow", "deny"]),
  note: z.string().max(2000).optional(),
}).strict();
export type DecideApprovalInput = z.infer<typeof DecideApprovalInput>;

export const ListApprovalsInput = z
  .object({ team: TeamParam.optional(), status: z.enum(["pending", "allowed", "denied", "timed_out", "cancelled"]).optional(), limit: Limit })
  .strict();
export type ListApprovalsInput = z.infer<typeof ListApprovalsInput>;

export const TeamSpawnInput = SpawnInput.omit({ prompt: true })
  .extend({
    role: z.string().max(200).default(""),
    /** The member's first task; the worker guide and roster are added to its system prompt. */
    prompt: Prompt.optional(),
  })
  .strict();
export type TeamSpawnInput = z.infer<typeof TeamSpawnInput>;

export const DelegateInput = z
  .object({
    team: TeamParam,
    name: SessionName,
    task: Prompt,
    context: Text(50_000).optional(),
    model: Model.optional(),
    preset: Preset.default("edit"),
    workDir: WorkDir.optional(),
    systemPrompt: Text(20_000).optional(),
    agent: SpawnInput.shape.agent,
    maxCost: z.number().positive().max(MAX_COST_USD).optional(),
    maxTurns: z.number().int().min(1).max(10_000).optional(),
    /** Per-interaction time limit in ms. */
    timeout: z
      .number()
      .int()
      .min(1000)
      .max(24 * 3600 * 1000)
      .optional(),
    /** false: no cost/turn/time limits (protected paths are still denied). */
    safety: z.boolean().default(true),
  })
  .strict();
export type DelegateInput = z.infer<typeof DelegateInput>;

export const ContinueInput = SessionRef.extend({ message: Prompt }).strict();
export type ContinueInput = z.infer<typeof ContinueInput>;
