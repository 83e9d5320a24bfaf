/**
 * Team knowledge (docs/knowledge.md): state updates, wisdom and the exploration cache. The limits of a state update are
 * the protocol's (five findings of 100 characters: a state update is a summary, the work itself is an artifact).
 */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { VersionRef } from "./artifacts.ts";
import { Cursor, Flag, Limit, TeamParam, Text } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

const oneOf = (values: readonly string[]) => ({ error: `must be one of ${values.join(", ")}` });

// ── State updates ──

export const STATE_STATUSES = ["in_progress", "completed", "blocked", "failed"] as const;
export const VERIFICATIONS = ["self-validated", "peer-reviewed", "tested"] as const;
export const MAX_FINDINGS = 5;
export const MAX_FINDING_CHARS = 100;

export const StateDecision = z.strictObject({ decision: Text(500), rationale: Text(1_000) });

export const StateUpdateInput = z.object({
  team: TeamParam,
  status: z.enum(STATE_STATUSES, oneOf(STATE_STATUSES)),
  task: Text(500),
  /** `id@vN` (or `id`: its current version, stored pinned); it must exist. */
  ref: VersionRef.optional(),
  keyFindings: z
    .array(Text(MAX_FINDING_CHARS))
    .max(MAX_FINDINGS, { error: `must list at most ${MAX_FINDINGS} findings` })
    .default([]),
  decisions: z.array(StateDecision).max(20, { error: "must list at most 20 decisions" }).default([]),
  filesModified: z
    .array(z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).max(4096, { error: "must be at most 4096 characters" }))
    .max(500, { error: "must list at most 500 files" })
    .default([]),
  verification: z.enum(VERIFICATIONS, oneOf(VERIFICATIONS)),
});
export type StateUpdateInput = z.infer<typeof StateUpdateInput>;

/** `history`: how many earlier updates per member to include (newest first). */
export const TeamStateInput = z.object({
  team: TeamParam,
  member: MemberName.optional(),
  history: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(0).max(100).default(5),
});
export type TeamStateInput = z.infer<typeof TeamStateInput>;

// ── Wisdom ──

export const Rationale = Text(10_000);
export const Alternatives = z.array(Text(2_000)).max(20, { error: "must list at most 20 alternatives" });
/** Links that must resolve: a typo is refused rather than journalled. */
export const Related = z.strictObject({
  artifacts: z.array(EntityId).max(50, { error: "must list at most 50 artifacts" }).optional(),
  contracts: z.array(EntityId).max(50, { error: "must list at most 50 contracts" }).optional(),
});
export const Examples = z.array(Text(5_000)).max(20, { error: "must list at most 20 examples" });

export const WISDOM_KINDS = ["learning", "decision", "convention", "issue"] as const;
export type WisdomKind = (typeof WISDOM_KINDS)[number];
export const WisdomKind = z.enum(WISDOM_KINDS, oneOf(WISDOM_KINDS));

/** A convention's title is its pattern name (docs/knowledge.md#wisdom), so it follows the id rules: checked by the domain. */
export const AppendWisdomInput = z.object({
  team: TeamParam,
  kind: WisdomKind,
  title: Text(200),
  body: Text(10_000),
  rationale: Rationale.optional(),
  alternatives: Alternatives.optional(),
  examples: Examples.optional(),
  related: Related.optional(),
});
export type AppendWisdomInput = z.infer<typeof AppendWisdomInput>;

export const ListWisdomInput = z.object({
  team: TeamParam,
  kind: WisdomKind.optional(),
  /** Only entries with a greater id: the newest one already seen. */
  after: Cursor,
  limit: Limit,
  /** The newest `limit` entries (after `after`), still read newest last: what a page showing the journal wants. */
  newest: Flag.default(false),
});
export type ListWisdomInput = z.infer<typeof ListWisdomInput>;

export const WisdomRefInput = z.object({ team: TeamParam, id: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1) });
export type WisdomRefInput = z.infer<typeof WisdomRefInput>;

/** What an edit would send: taken only so that the answer is the append-only rule, not "unknown field". */
const Ignored = z.unknown().optional();
export const WisdomEditInput = WisdomRefInput.extend({
  kind: Ignored,
  title: Ignored,
  body: Ignored,
  rationale: Ignored,
  alternatives: Ignored,
  examples: Ignored,
  related: Ignored,
});

// ── Exploration cache ──

/** "Auth token storage", "authTokenStorage" and "auth_token_storage" are all the angle `auth-token-storage`. */
export function normaliseAngle(angle: string): string {
  return angle
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export const Angle = z
  .string({ error: "must be a string" })
  .max(200, { error: "must be at most 200 characters" })
  .transform((a, ctx) => {
    const angle = normaliseAngle(a);
    if (!angle) ctx.addIssue({ code: "custom", message: "must contain a letter or digit (angles are kebab-case, e.g. 'auth-token-storage')" });
    return angle;
  });

export const ExplorationLookupInput = z.object({ team: TeamParam, angle: Angle });
export type ExplorationLookupInput = z.infer<typeof ExplorationLookupInput>;

export const ExplorationRecordInput = z.object({ team: TeamParam, angle: Angle, result: Text(20_000), ref: VersionRef.optional() });
export type ExplorationRecordInput = z.infer<typeof ExplorationRecordInput>;

export const ExplorationListInput = z.object({ team: TeamParam, limit: Limit, cursor: z.string().max(200).optional() });
export type ExplorationListInput = z.infer<typeof ExplorationListInput>;

// ── Responses ──

const Ref = z.object({ artifactId: z.string(), version: z.number().int() }).nullable();

export const StateUpdateView = z.object({
  id: z.number().int(),
  team: z.string(),
  member: z.string(),
  role: z.string(),
  status: z.enum(STATE_STATUSES),
  task: z.string(),
  ref: Ref,
  keyFindings: z.array(z.string()),
  decisions: z.array(z.object({ decision: z.string(), rationale: z.string() })),
  filesModified: z.array(z.string()),
  verification: z.enum(VERIFICATIONS),
  createdAt: IsoDate,
});
export type StateUpdateView = z.output<typeof StateUpdateView>;

/** One member's part of the team state: its newest update and the ones before it. */
export const MemberState = z.object({ member: z.string(), role: z.string(), latest: StateUpdateView, history: z.array(StateUpdateView) });
export type MemberState = z.output<typeof MemberState>;

export const TeamState = z.object({ team: z.string(), members: z.array(MemberState) });
export type TeamState = z.output<typeof TeamState>;

export const WisdomView = z.object({
  id: z.number().int(),
  team: z.string(),
  kind: z.enum(WISDOM_KINDS),
  title: z.string(),
  body: z.string(),
  rationale: z.string(),
  alternatives: z.array(z.string()),
  examples: z.array(z.string()),
  related: z.object({ artifacts: z.array(z.string()), contracts: z.array(z.string()) }),
  author: z.string(),
  createdAt: IsoDate,
});
export type WisdomView = z.output<typeof WisdomView>;

/** Oldest first (the journal reads newest last); `nextAfter` continues it. */
export const WisdomPage = z.object({ items: z.array(WisdomView), nextAfter: z.number().int().nullable() });
export type WisdomPage = z.output<typeof WisdomPage>;

export const ExplorationView = z.object({
  team: z.string(),
  angle: z.string(),
  result: z.string(),
  ref: Ref,
  /** Who created the entry (the only one who may update it) and when; `revision` counts its updates. */
  createdBy: z.string(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  revision: z.number().int(),
});
export type ExplorationView = z.output<typeof ExplorationView>;

/** A lookup is a hit (the cached entry) or a miss: the caller explores, then records. */
export const ExplorationLookup = z.object({ angle: z.string(), hit: z.boolean(), entry: ExplorationView.nullable() });
export type ExplorationLookup = z.output<typeof ExplorationLookup>;

export const ExplorationRecord = ExplorationView.extend({ outcome: z.enum(["created", "updated"]) });
export type ExplorationRecord = z.output<typeof ExplorationRecord>;

export const ExplorationPage = z.object({ items: z.array(ExplorationView), nextCursor: z.string().nullable() });
export type ExplorationPage = z.output<typeof ExplorationPage>;
