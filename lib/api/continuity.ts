/**
 * Session continuity (docs/domain.md#continuity): the decision journal, the pattern registry, checkpoints and the
 * briefing. Texts are bounded like messages (docs/architecture.md#input-limits); names follow the id rules (docs/domain.md#names).
 */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { Cursor, Limit, TeamParam } from "./common.ts";

const Text = (max: number) =>
  z
    .string({ error: "must be a string" })
    .trim()
    .min(1, { error: "must not be empty" })
    .max(max, { error: `must be at most ${max} characters` });

export const RecordDecisionInput = z.object({
  team: TeamParam,
  title: Text(200),
  decision: Text(10_000),
  rationale: Text(10_000).optional(),
  alternatives: z.array(Text(2_000)).max(20, { error: "must list at most 20 alternatives" }).optional(),
  /** Links that must resolve: a typo is refused rather than journalled. */
  related: z
    .strictObject({
      artifacts: z.array(EntityId).max(50, { error: "must list at most 50 artifacts" }).optional(),
      contracts: z.array(EntityId).max(50, { error: "must list at most 50 contracts" }).optional(),
    })
    .optional(),
});
export type RecordDecisionInput = z.infer<typeof RecordDecisionInput>;

/** An ISO 8601 date-time (with a zone) or a date, e.g. 2026-01-31 or 2026-01-31T09:00:00Z. */
export const Since = z.union([z.iso.datetime({ offset: true }), z.iso.date()], {
  error: "must be an ISO 8601 date or date-time, e.g. 2026-01-31 or 2026-01-31T09:00:00Z",
});

export const ListDecisionsInput = z.object({
  team: TeamParam,
  since: Since.optional(),
  /** Only decisions with a greater id: the newest one you have already seen. */
  after: Cursor,
  /** Only decisions related to this artifact (or contract). */
  artifact: EntityId.optional(),
  contract: EntityId.optional(),
  limit: Limit,
  cursor: Cursor,
});
export type ListDecisionsInput = z.infer<typeof ListDecisionsInput>;

export const RegisterPatternInput = z.object({
  team: TeamParam,
  name: EntityId,
  description: Text(10_000),
  examples: z.array(Text(5_000)).max(20, { error: "must list at most 20 examples" }).optional(),
});
export type RegisterPatternInput = z.infer<typeof RegisterPatternInput>;

export const PatternRefInput = z.object({ team: TeamParam, name: EntityId });
export type PatternRefInput = z.infer<typeof PatternRefInput>;

/** Patterns page by name: `cursor` is the last name of the previous page. */
export const ListPatternsInput = z.object({ team: TeamParam, limit: Limit, cursor: EntityId.optional() });
export type ListPatternsInput = z.infer<typeof ListPatternsInput>;

export const CHECKPOINT_KINDS = ["stop", "pre_compact", "session_end", "session_start"] as const;
export type CheckpointKind = (typeof CHECKPOINT_KINDS)[number];

/** Claude Code's session ids (UUIDs today); kept printable and bounded. */
export const ClaudeSessionId = z.string({ error: "must be a string" }).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/, {
  error: "must be a Claude Code session id: letters, digits, '.', '_', ':' or '-', at most 200 characters",
});

// Bounded so a huge work tree cannot blow up a checkpoint or a briefing.
export const MAX_CHANGED_FILES = 1000;
const FilePath = z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).max(4096, { error: "must be at most 4096 characters" });
const ChangedFiles = z.array(FilePath).max(MAX_CHANGED_FILES, { error: `must list at most ${MAX_CHANGED_FILES} files` });
export const GitHead = z.string({ error: "must be a string" }).regex(/^[0-9a-f]{7,64}$/, { error: "must be a git commit id (7–64 hex digits)" });

// The summary is a reminder of where work stood, not a transcript.
export const MAX_SUMMARY_CHARS = 4000;

export const CheckpointState = z.strictObject({
  cwd: FilePath.optional(),
  head: GitHead.optional(),
  summary: Text(MAX_SUMMARY_CHARS).optional(),
  changedFiles: ChangedFiles.optional(),
});
export type CheckpointState = z.infer<typeof CheckpointState>;

export const RecordCheckpointInput = z.object({
  team: TeamParam,
  kind: z.enum(CHECKPOINT_KINDS, { error: `must be one of ${CHECKPOINT_KINDS.join(", ")}` }),
  claudeSessionId: ClaudeSessionId.optional(),
  state: CheckpointState.optional(),
});
export type RecordCheckpointInput = z.infer<typeof RecordCheckpointInput>;

/**
 * Which checkpoint a briefing starts from: that Claude session's latest, else the caller's latest.
 * `member`: an operator may ask on a member's behalf; anyone else only about itself.
 */
export const LatestCheckpointInput = z.object({ team: TeamParam, claudeSessionId: ClaudeSessionId.optional(), member: MemberName.optional() });
export type LatestCheckpointInput = z.infer<typeof LatestCheckpointInput>;

/** What the caller's work tree says; the hub has no access to it. */
export const GitFacts = z.strictObject({
  head: GitHead.optional(),
  /** The commit changedFiles are counted from (the HEAD of the last checkpoint). */
  since: GitHead.optional(),
  changedFiles: ChangedFiles.optional(),
});
export type GitFacts = z.infer<typeof GitFacts>;

export const BriefingInput = LatestCheckpointInput.extend({ git: GitFacts.optional() });
export type BriefingInput = z.infer<typeof BriefingInput>;

export const HOOK_EVENTS = ["session-start", "stop", "pre-compact", "session-end"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/**
 * The JSON Claude Code gives a hook on stdin. Only the fields used are checked; the rest (which
 * grows with Claude Code versions) passes through unread.
 */
export const HookPayload = z.looseObject({
  session_id: ClaudeSessionId.optional(),
  cwd: FilePath.optional(),
  /** Stop hooks carry the last reply: kept, shortened, as the checkpoint's summary (the body cap bounds it). */
  last_assistant_message: z.string().optional(),
});

export const HookInput = z.object({
  team: TeamParam,
  event: z.enum(HOOK_EVENTS, { error: `must be one of ${HOOK_EVENTS.join(", ")}` }),
  hook: HookPayload.default({}),
  git: GitFacts.optional(),
});
export type HookInput = z.infer<typeof HookInput>;
