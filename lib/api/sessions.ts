/**
 * Sessions (docs/domain.md#sessions): supervised `claude` processes. Every door (HTTP, MCP, CLI) parses with these.
 */
import { z } from "zod";
import { MemberName, TeamId } from "../ids.ts";
import { Cursor, Flag, Limit, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";
import { RuntimeName } from "./runtimes.ts";
import { IsolationFields, WorktreeRef } from "./worktrees.ts";

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
    /** The agent it runs, from the hub's runtimes (`runtimes.list`); default claude. */
    runtime: RuntimeName.optional(),
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
    /** A git work tree of its own (docs/worktrees.md); default: the team's `isolation` (`memberIsolation` for team members). */
    ...IsolationFields,
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

/**
 * `forSession`: allow this call and, from now on in this session, the same call without asking: the hub adds a rule for
 * exactly this command (or file) to the session's allowed tools (docs/sessions.md#allow-for-this-session).
 */
export const DecideApprovalInput = SessionRef.extend({
  approvalId: z.number().int().min(1),
  decision: z.enum(["allow", "deny"]),
  note: z.string().max(2000).optional(),
  forSession: z.boolean({ error: "must be true or false" }).optional(),
})
  .strict()
  .refine((d) => !(d.forSession && d.decision === "deny"), { path: ["forSession"], error: "applies to allow only: a denial is never remembered" });
export type DecideApprovalInput = z.infer<typeof DecideApprovalInput>;

/** At most this many in one bulk decision: a page of the approvals queue. */
export const MAX_BULK_APPROVALS = 200;

/** Several pending requests of one team answered alike (the approvals queue's "allow selected"). */
export const DecideApprovalsInput = z
  .object({
    team: TeamParam,
    ids: z
      .array(z.number().int().min(1), { error: "must be a list of approval ids" })
      .min(1, { error: "must name at least one approval" })
      .max(MAX_BULK_APPROVALS, { error: `must name at most ${MAX_BULK_APPROVALS} approvals` })
      .refine((ids) => new Set(ids).size === ids.length, { error: "must not name an approval twice" }),
    decision: z.enum(["allow", "deny"]),
    note: z.string().max(2000).optional(),
  })
  .strict();
export type DecideApprovalsInput = z.infer<typeof DecideApprovalsInput>;

/** Which approvals a list or a count takes: a team's, of one status, or all. */
export const ApprovalsFilter = z
  .object({ team: TeamParam.optional(), status: z.enum(["pending", "allowed", "denied", "timed_out", "cancelled"]).optional() })
  .strict();
export type ApprovalsFilter = z.infer<typeof ApprovalsFilter>;

export const ListApprovalsInput = ApprovalsFilter.extend({ limit: Limit }).strict();
export type ListApprovalsInput = z.infer<typeof ListApprovalsInput>;

/** How many approvals the filter takes, however many a list would show (the nav's badge counts past a page). */
export const ApprovalCount = z.object({ count: z.number().int() });
export type ApprovalCount = z.output<typeof ApprovalCount>;

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
    runtime: SpawnInput.shape.runtime,
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
    ...IsolationFields,
  })
  .strict();
export type DelegateInput = z.infer<typeof DelegateInput>;

export const ContinueInput = SessionRef.extend({ message: Prompt }).strict();
export type ContinueInput = z.infer<typeof ContinueInput>;

// ── Responses ──

export const SESSION_KINDS = ["session", "delegate", "member"] as const;
export const SessionKind = z.enum(SESSION_KINDS);
export type SessionKind = z.infer<typeof SessionKind>;

/** The safety net as stored: the limits plus how long approvals wait. */
export const StoredSafety = Safety.extend({ approvalTimeoutMs: z.number().int() });
export type StoredSafety = z.output<typeof StoredSafety>;

/** A session as every door shows it; `outputHidden` says its output was left out for a caller who does not own it. */
export const SessionView = z.object({
  name: z.string(),
  team: z.string(),
  kind: SessionKind,
  status: SessionStatus,
  claudeSessionId: z.string().nullable(),
  /** The agent it runs (docs/runtimes.md). */
  runtime: z.string(),
  model: z.string().nullable(),
  workDir: z.string(),
  preset: Preset,
  allowedTools: z.array(z.string()),
  systemPrompt: z.string().nullable(),
  agent: z.string().nullable(),
  maxBudgetUsd: z.number().nullable(),
  safety: StoredSafety,
  principal: z.string().nullable(),
  pid: z.number().int().nullable(),
  costUsd: z.number(),
  turns: z.number().int(),
  interactions: z.number().int(),
  lastOutput: z.string().nullable(),
  lastError: z.string().nullable(),
  exitReason: z.string().nullable(),
  /** What a person should know is wrong, in words ("cost limit: $0.40 spent of $0.05"); null when nothing is. */
  problem: z.string().nullable(),
  stalled: z.boolean(),
  stalledAt: IsoDate.nullable(),
  parent: z.string().nullable(),
  spawnedBy: z.string().nullable(),
  /** Whether the last process ran in the OS sandbox; null until it first launched. */
  sandbox: z.enum(["bubblewrap", "none"]).nullable(),
  /** The hub that runs (or last ran) its process, when several share the database (docs/hubs.md); null until one claims it. */
  hub: z.string().nullable(),
  queuedAt: IsoDate.nullable(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  lastEventAt: IsoDate.nullable(),
  /** Messages waiting for their turn. */
  queued: z.number().int(),
  pendingApprovals: z.number().int(),
  /** Where a `queued` session stands in the admission queue (1 starts next); null otherwise. */
  queuePosition: z.number().int().nullable(),
  /** Its git work tree and branch (docs/worktrees.md); null when it works in the shared work dir. */
  worktree: WorktreeRef.nullable(),
  outputHidden: z.literal(true).optional(),
});
export type SessionView = z.output<typeof SessionView>;

/** A team member's session, with the spawn batch it counted in (0 when the team does not enforce the phase gate). */
export const MemberSessionView = SessionView.extend({ batch: z.number().int() });
export type MemberSessionView = z.output<typeof MemberSessionView>;

export const INTERACTION_STATUSES = ["queued", "running", "completed", "error", "interrupted", "limit", "cancelled"] as const;
export const InteractionStatus = z.enum(INTERACTION_STATUSES);
export type InteractionStatus = z.infer<typeof InteractionStatus>;

/** One user turn: what was asked, what came back, what it cost. */
export const InteractionView = z.object({
  id: z.number().int(),
  n: z.number().int(),
  prompt: z.string(),
  response: z.string().nullable(),
  status: InteractionStatus,
  isError: z.boolean(),
  resultSubtype: z.string().nullable(),
  /** Why it did not complete (status error or limit), in words. */
  error: z.string().nullable(),
  costUsd: z.number(),
  /** Its tokens as the CLI reported them (docs/budgets.md#tokens); token budgets count all but cache reads. */
  inputTokens: z.number().int(),
  cacheWriteTokens: z.number().int(),
  cacheReadTokens: z.number().int(),
  outputTokens: z.number().int(),
  turns: z.number().int(),
  durationMs: z.number().nullable(),
  toolsUsed: z.array(z.string()),
  permissionDenials: z.array(z.object({ tool_name: z.string(), tool_input: z.unknown().optional() })),
  /** The turn ended without any text or tool call. */
  empty: z.boolean(),
  startedAt: IsoDate,
  endedAt: IsoDate.nullable(),
});
export type InteractionView = z.output<typeof InteractionView>;

export const APPROVAL_STATUSES = ["pending", "allowed", "denied", "timed_out", "cancelled"] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

/** A permission request; `inputHidden` says its tool input was left out for a caller who may not decide it. */
export const ApprovalView = z.object({
  id: z.number().int(),
  session: z.string(),
  teamId: z.string().nullable(),
  requestId: z.string(),
  toolName: z.string(),
  input: z.record(z.string(), z.unknown()),
  reason: z.string(),
  status: ApprovalStatus,
  decidedBy: z.string().nullable(),
  note: z.string().nullable(),
  createdAt: IsoDate,
  expiresAt: IsoDate,
  decidedAt: IsoDate.nullable(),
  inputHidden: z.literal(true).optional(),
});
export type ApprovalView = z.output<typeof ApprovalView>;

/** decided: settled by this call; skipped: settled before it arrived (timed out, or decided by someone else meanwhile). */
export const DecideApprovalsResult = z.object({
  decided: z.array(ApprovalView),
  skipped: z.array(z.object({ id: z.number().int(), status: z.enum(["pending", "allowed", "denied", "timed_out", "cancelled"]) })),
});
export type DecideApprovalsResult = z.output<typeof DecideApprovalsResult>;

export const VIOLATION_KINDS = ["cost", "turns", "timeout", "protected_path"] as const;
export const ViolationKind = z.enum(VIOLATION_KINDS);
export type ViolationKind = z.infer<typeof ViolationKind>;

export const Violation = z.object({ id: z.number().int(), kind: ViolationKind, detail: z.string(), at: IsoDate });
export type Violation = z.output<typeof Violation>;

/** `status`: the session with its running turn (prompt and response blank for a caller who does not own it), pending approvals and violations. */
export const SessionStatusView = SessionView.extend({
  running: InteractionView.nullable(),
  approvals: z.array(ApprovalView),
  violations: z.array(Violation),
});
export type SessionStatusView = z.output<typeof SessionStatusView>;

/** `output`: the newest finished turn's text. */
export const OutputView = z.object({ name: z.string(), status: SessionStatus, output: z.string().nullable(), interaction: InteractionView.nullable() });
export type OutputView = z.output<typeof OutputView>;

export const HistoryView = z.object({ name: z.string(), costUsd: z.number(), turns: z.number().int(), interactions: z.array(InteractionView) });
export type HistoryView = z.output<typeof HistoryView>;

/** One stored line of the stream: what the hub sent the CLI (`in`) or the CLI printed (`out`). The /ws push carries the same. */
export const TranscriptEntryView = z.object({
  id: z.number().int(),
  interactionId: z.number().int().nullable(),
  at: IsoDate,
  direction: z.enum(["in", "out"]),
  type: z.string(),
  subtype: z.string().nullable(),
  payload: z.unknown(),
});
export type TranscriptEntryView = z.output<typeof TranscriptEntryView>;

export const TranscriptView = z.object({ name: z.string(), entries: z.array(TranscriptEntryView) });
export type TranscriptView = z.output<typeof TranscriptView>;

/** `send`: the queued (or, when waited for, finished) turn; `completed` says it ended within the wait. */
export const SendResult = z.object({ session: SessionView, interaction: InteractionView, completed: z.boolean() });
export type SendResult = z.output<typeof SendResult>;

export const DELEGATE_STATUSES = ["completed", "needs_input", "failed", "cost_exceeded", "turns_exceeded", "timed_out"] as const;
export const DelegateStatus = z.enum(DELEGATE_STATUSES);
export type DelegateStatus = z.infer<typeof DelegateStatus>;

/** What a delegated task (or a `continue`) came to, in a form a parent agent can act on. */
export const DelegateResult = z.object({
  status: DelegateStatus,
  response: z.string().nullable(),
  cost: z.number(),
  turns: z.number().int(),
  /** Milliseconds. */
  duration: z.number(),
  sessionId: z.string().nullable(),
  name: z.string(),
  canContinue: z.boolean(),
  toolsUsed: z.array(z.string()),
  safety: z.object({
    violations: z.array(Violation.omit({ id: true })),
    limits: z.object({ maxCostUsd: z.number(), maxTurns: z.number().int(), timeoutMs: z.number().int(), enabled: z.boolean() }),
  }),
  error: z.string().nullable(),
});
export type DelegateResult = z.output<typeof DelegateResult>;

/** `finish` and `abort`: the session's totals once it is stopped or killed. */
export const FinishResult = z.object({
  name: z.string(),
  status: SessionStatus,
  cost: z.number(),
  turns: z.number().int(),
  interactions: z.number().int(),
  sessionId: z.string().nullable(),
});
export type FinishResult = z.output<typeof FinishResult>;

export const DeletedSession = z.object({ deleted: z.string() });
export const CleanupResult = z.object({ deleted: z.array(z.string()) });
