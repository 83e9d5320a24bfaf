/**
 * Session continuity (docs/domain.md#continuity): the decision journal, the pattern registry, checkpoints and the
 * briefing. Texts are bounded like messages (docs/architecture.md#input-limits); names follow the id rules (docs/domain.md#names).
 */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { Cursor, Limit, TeamParam, Text } from "./common.ts";
import { IsoDate } from "./endpoint.ts";
import { Alternatives, Examples, ExplorationView, MemberState, Rationale, Related, WisdomView } from "./knowledge.ts";

export const RecordDecisionInput = z.object({
  team: TeamParam,
  title: Text(200),
  decision: Text(10_000),
  rationale: Rationale.optional(),
  alternatives: Alternatives.optional(),
  related: Related.optional(),
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
  examples: Examples.optional(),
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

// ── Responses ──

export const CheckpointView = z.object({
  id: z.number().int(),
  team: z.string(),
  principal: z.string(),
  claudeSessionId: z.string().nullable(),
  kind: z.enum(CHECKPOINT_KINDS),
  state: CheckpointState,
  /** The event log position when it was recorded: the next briefing counts from here. */
  lastEventId: z.number().int(),
  at: IsoDate,
});
export type CheckpointView = z.output<typeof CheckpointView>;

export const LatestCheckpoint = z.object({ checkpoint: CheckpointView.nullable() });

export const DecisionView = z.object({
  id: z.number().int(),
  team: z.string(),
  title: z.string(),
  decision: z.string(),
  rationale: z.string(),
  alternatives: z.array(z.string()),
  related: z.object({ artifacts: z.array(z.string()), contracts: z.array(z.string()) }),
  author: z.string(),
  createdAt: IsoDate,
});
export type DecisionView = z.output<typeof DecisionView>;

export const DecisionPage = z.object({ items: z.array(DecisionView), nextCursor: z.number().int().nullable() });
export type DecisionPage = z.output<typeof DecisionPage>;

export const PatternView = z.object({
  name: z.string(),
  team: z.string(),
  description: z.string(),
  examples: z.array(z.string()),
  /** Who wrote the current text. */
  author: z.string(),
  /** When the name first appeared. */
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type PatternView = z.output<typeof PatternView>;

/** Registering the same text again is `unchanged`: nothing written, nothing announced. */
export const PatternRegistration = PatternView.extend({ outcome: z.enum(["created", "updated", "unchanged"]) });
export type PatternRegistration = z.output<typeof PatternRegistration>;

export const PatternPage = z.object({ items: z.array(PatternView), nextCursor: z.string().nullable() });
export type PatternPage = z.output<typeof PatternPage>;

/** A briefing section: at most a few items, with the total. */
const Section = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), total: z.number().int() });

export const ContractChange = z.object({
  event: z.enum(["created", "status_changed", "reassigned"]),
  from: z.string().nullable(),
  to: z.string().nullable(),
  reason: z.string().nullable(),
  by: z.string(),
  at: IsoDate,
});
export type ContractChange = z.output<typeof ContractChange>;

/** `status` and `title` are the contract's now; null when it no longer exists (a reset or rollback removed it). */
export const BriefContract = z.object({
  id: z.string(),
  title: z.string().nullable(),
  status: z.string().nullable(),
  assignee: z.string().nullable(),
  changes: z.array(ContractChange),
});
export type BriefContract = z.output<typeof BriefContract>;

/** An artifact the principal read whose current version is newer than the newest it read. */
export const BriefArtifact = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string(),
  readVersion: z.number().int(),
  currentVersion: z.number().int(),
  publisher: z.string(),
  summary: z.string(),
  publishedAt: IsoDate,
});
export type BriefArtifact = z.output<typeof BriefArtifact>;

export const BriefMessage = z.object({ id: z.number().int(), sender: z.string(), kind: z.string(), text: z.string(), at: IsoDate });
export type BriefMessage = z.output<typeof BriefMessage>;

export const Briefing = z.object({
  team: z.string(),
  principal: z.string(),
  /** The checkpoint this briefing counts from; null: a first-time overview. */
  since: CheckpointView.nullable(),
  contracts: Section(BriefContract),
  artifacts: Section(BriefArtifact),
  messages: z.object({ unread: z.number().int(), first: z.array(BriefMessage) }),
  decisions: Section(DecisionView),
  patterns: Section(PatternView),
  /** Learnings and issues appended since the checkpoint (docs/knowledge.md#context-loading), newest last. */
  lessons: Section(WisdomView),
  /** Every member's newest state update. */
  teamState: z.array(MemberState),
  /** Cached explorations whose angle appears in the inputs of the principal's open contracts. */
  explorations: z.array(ExplorationView),
  git: z.object({ head: z.string().nullable(), since: z.string().nullable(), changedFiles: z.array(z.string()) }).nullable(),
  /** The same, as short markdown for a model's context. */
  markdown: z.string(),
});
export type Briefing = z.output<typeof Briefing>;
export type Section<T> = { items: T[]; total: number };

/** What a hook did: the checkpoint it recorded and, for SessionStart, the briefing it computed first. */
export const HookOutcome = z.object({ event: z.enum(HOOK_EVENTS), checkpoint: CheckpointView, briefing: Briefing.nullable() });
export type HookOutcome = z.output<typeof HookOutcome>;
