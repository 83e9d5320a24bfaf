/**
 * Inputs of snapshots, rollback, replay and diff (docs/domain.md#snapshots). Snapshot ids follow the entity id rule;
 * `current` is reserved because a diff side names the team's live state with it.
 */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { Cursor, JsonObject, Limit, TeamParam } from "./common.ts";
import { ContractView } from "./contracts.ts";
import { IsoDate } from "./endpoint.ts";
import { CodeMove, CodeState } from "./worktrees.ts";

export const CURRENT = "current";

export const SnapshotId = EntityId.refine((id) => id !== CURRENT, { error: `'${CURRENT}' is reserved: a diff uses it for the team's live state` });

export const TakeSnapshotInput = z.object({
  team: TeamParam,
  /** Generated (`snap-<yyyymmdd-hhmmss>-<hex>`) when omitted. */
  id: SnapshotId.optional(),
  label: z.string().max(200, { error: "must be at most 200 characters" }).default(""),
});
export type TakeSnapshotInput = z.infer<typeof TakeSnapshotInput>;

export const SnapshotRefInput = z.object({ team: TeamParam, id: EntityId });
export type SnapshotRefInput = z.infer<typeof SnapshotRefInput>;

export const ListSnapshotsInput = z.object({ team: TeamParam, limit: Limit, cursor: Cursor });
export type ListSnapshotsInput = z.infer<typeof ListSnapshotsInput>;

export const ContractOverride = z
  .strictObject(
    {
      inputs: JsonObject.optional(),
      assignee: MemberName.optional(),
      title: z.string().min(1, { error: "must not be empty" }).max(200, { error: "must be at most 200 characters" }).optional(),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? `only inputs, assignee and title can be overridden (got ${issue.keys.join(", ")})`
          : "must be an object {inputs?, assignee?, title?}",
    },
  )
  .refine((o) => o.inputs !== undefined || o.assignee !== undefined || o.title !== undefined, {
    error: "must change at least one of inputs, assignee, title",
  });
export type ContractOverride = z.infer<typeof ContractOverride>;

export const ReplayInput = SnapshotRefInput.extend({
  /** `{contractId: {inputs?, assignee?, title?}}`, applied to the restored contracts. */
  overrides: z
    .record(EntityId, ContractOverride, {
      error: (issue) =>
        issue.code === "invalid_key"
          ? "must be keyed by contract ids (lowercase letters, digits, '.', '_' or '-')"
          : "must be an object {contractId: override}",
    })
    .default({}),
});
export type ReplayInput = z.infer<typeof ReplayInput>;

/** Each side is a snapshot id or `current`. */
export const DiffInput = z.object({ team: TeamParam, a: EntityId, b: EntityId.default(CURRENT) });
export type DiffInput = z.infer<typeof DiffInput>;

// ── Responses ──

export const SNAPSHOT_KINDS = ["manual", "pre-rollback", "pre-replay", "pre-reset"] as const;
/** `manual` is taken by someone; the others are kept automatically before a rollback, replay or reset (each can be undone). */
export const SnapshotKind = z.enum(SNAPSHOT_KINDS);
export type SnapshotKind = z.output<typeof SnapshotKind>;

export const StateCounts = z.object({ contracts: z.number().int(), artifacts: z.number().int(), pipelines: z.number().int(), members: z.number().int() });
export type StateCounts = z.output<typeof StateCounts>;

export const SnapshotMeta = z.object({
  id: z.string(),
  team: z.string(),
  label: z.string(),
  kind: SnapshotKind,
  createdBy: z.string(),
  createdAt: IsoDate,
  /** Every version with a higher seq was published after the capture. */
  maxSeq: z.number().int(),
  lastEventId: z.number().int(),
  /** Compressed bytes of the stored state. */
  size: z.number().int(),
  counts: StateCounts,
});
export type SnapshotMeta = z.output<typeof SnapshotMeta>;

export const SnapshotPage = z.object({ items: z.array(SnapshotMeta), nextCursor: z.number().int().nullable() });
export type SnapshotPage = z.output<typeof SnapshotPage>;

/*
 * The captured state is a stored document (format 1), answered as it was written: its times stay
 * ISO text, since restoring and diffing compare them as stored (docs/wire.md#snapshot-state).
 */
const StoredTime = z.iso.datetime({ offset: true });

/** A contract as stored in a state: its view with the row's own fields, times as stored text. */
export const ContractState = ContractView.omit({ team: true }).extend({
  pk: z.number().int(),
  priority: z.string(),
  status: z.string(),
  windowStartSeq: z.number().int(),
  deadlineAt: StoredTime.nullable(),
  startedAt: StoredTime.nullable(),
  completedAt: StoredTime.nullable(),
  createdAt: StoredTime,
  updatedAt: StoredTime,
});
export type ContractState = z.output<typeof ContractState>;

/** A live (not archived) artifact and its current version: the newest active one, if any. */
export const ArtifactPointer = z.object({ id: z.string(), pk: z.number().int(), version: z.number().int().nullable(), seq: z.number().int().nullable() });
export type ArtifactPointer = z.output<typeof ArtifactPointer>;

export const PipelineState = z.object({
  pk: z.number().int(),
  id: z.string(),
  status: z.string(),
  rules: z.array(z.unknown()),
  triggers: z.string(),
  createdBy: z.string(),
  fromEventId: z.number().int(),
  createdAt: StoredTime,
  updatedAt: StoredTime,
});
export type PipelineState = z.output<typeof PipelineState>;

export const MemberState = z.object({
  name: z.string(),
  role: z.string(),
  status: z.string(),
  currentTask: z.string().nullable(),
  sessionId: z.string().nullable(),
  joinedAt: StoredTime,
  lastSeen: StoredTime,
});
export type MemberState = z.output<typeof MemberState>;

export const GateState = z.object({
  gateCount: z.number().int(),
  gatesAtLastBatch: z.number().int(),
  spawnBatchCount: z.number().int(),
  lastSpawnAt: StoredTime.nullable(),
  lastGateAt: StoredTime.nullable(),
});
export type GateState = z.output<typeof GateState>;

/** Team knowledge as pointers (docs/knowledge.md#snapshots-and-reset): the ids of the live state updates and cache revisions. */
export const KnowledgePointers = z.object({ stateUpdates: z.array(z.number().int()), explorations: z.array(z.number().int()) });
export type KnowledgePointers = z.output<typeof KnowledgePointers>;

export const SnapshotState = z.object({
  format: z.literal(1),
  /** First, so listing snapshots reads it from the start of the compressed state. */
  counts: StateCounts,
  team: z.string(),
  maxSeq: z.number().int(),
  lastEventId: z.number().int(),
  contracts: z.array(ContractState),
  artifacts: z.object({
    index: z.array(ArtifactPointer),
    archived: z.array(z.string()),
    /** Versions already rolled back at capture, so restoring brings back exactly these statuses. */
    rolledBackSeqs: z.array(z.number().int()),
  }),
  pipelines: z.array(PipelineState),
  roster: z.array(MemberState),
  gate: GateState,
  /** Absent in snapshots taken before team knowledge: restoring them leaves it as it is. */
  knowledge: KnowledgePointers.optional(),
  /** Each live work tree's commit at capture (docs/worktrees.md#code-in-snapshots); absent in snapshots taken before. */
  code: z.array(CodeState).optional(),
});
export type SnapshotState = z.output<typeof SnapshotState>;

export const SnapshotDetail = SnapshotMeta.extend({ state: SnapshotState });
export type SnapshotDetail = z.output<typeof SnapshotDetail>;

export const SnapshotDeleted = z.object({ id: z.string(), deleted: z.literal(true) });

/** One compared entity: its id and the fields a diff looks at (values as stored). */
export const DiffEntity = z.object({ id: z.string() }).catchall(z.unknown());
export type DiffEntity = z.output<typeof DiffEntity>;
export const FieldChanges = z.record(z.string(), z.object({ old: z.unknown(), new: z.unknown() }));
export type FieldChanges = z.output<typeof FieldChanges>;
export const KindDiff = z.object({
  added: z.array(DiffEntity),
  removed: z.array(DiffEntity),
  changed: z.array(z.object({ id: z.string(), fields: FieldChanges })),
});
export type KindDiff = z.output<typeof KindDiff>;
export const DIFF_KINDS = ["contracts", "artifacts", "pipelines", "roster"] as const;
export type DiffKindName = (typeof DIFF_KINDS)[number];

/** What changed from side `a` to side `b` (a snapshot id or `current`), per kind. */
export const StateDiff = z.object({
  team: z.string(),
  a: z.string(),
  b: z.string(),
  contracts: KindDiff,
  artifacts: KindDiff,
  pipelines: KindDiff,
  roster: KindDiff,
});
export type StateDiff = z.output<typeof StateDiff>;

/*
 * What a rollback or replay reports (its preview too): written once here, for the domain that
 * builds it and the CLI and dashboard that read it.
 */
const Move = z.object({ from: z.string().nullable(), to: z.string().nullable() });
/** A contract whose existence (null), status or assignee a rewind changed. */
export const ContractMove = z.object({ id: z.string(), status: Move, assignee: Move });
export type ContractMove = z.output<typeof ContractMove>;
/** A contract that starts a new run: its status before the replay (null: it did not exist), in the snapshot, and after. */
export const ReRunEntry = z.object({
  id: z.string(),
  assignee: z.string(),
  from: z.string().nullable(),
  snapshot: z.string(),
  to: z.string(),
  because: z.string(),
  waitsFor: z.array(z.string()),
});
export type ReRunEntry = z.output<typeof ReRunEntry>;
/** Contracts and pipelines, by id, that a rewind takes away or brings back. */
export const Entities = z.object({
  contracts: z.array(z.string()),
  contractsCount: z.number().int(),
  pipelines: z.array(z.string()),
  pipelinesCount: z.number().int(),
});
export type Entities = z.output<typeof Entities>;

/** What a rollback or replay would do; no automatic snapshot is kept, so it has no undo point. */
export const RewindPreview = z.object({
  team: z.string(),
  snapshot: z.string(),
  /** True for a preview: nothing was written. */
  dryRun: z.boolean(),
  rolledBackVersions: z.array(z.string()),
  rolledBackCount: z.number().int(),
  /** Versions rolled back after the capture that are active again. */
  reactivatedVersions: z.array(z.string()),
  reactivatedCount: z.number().int(),
  /** Replay only: the overridden contracts and everything downstream of them, upstream first. */
  reRun: z.array(ReRunEntry),
  reRunCount: z.number().int(),
  /** There now, not in the snapshot. */
  removed: Entities,
  /** In the snapshot, not there now. */
  restored: Entities,
  /** Pipelines in both whose status or rules go back to the snapshot's. */
  pipelinesChanged: z.array(z.string()),
  contractsChanged: z.array(ContractMove),
  contractsChangedCount: z.number().int(),
  membersNotified: z.number().int(),
  /** Messages a team reset archived under this snapshot, back in their inboxes. */
  messagesRestored: z.number().int(),
  /** Replay only: the fields each override really changed, old → new. */
  overridden: z.record(z.string(), FieldChanges),
  /** What happened to each work tree the snapshot recorded (a preview: what would). */
  code: z.array(CodeMove),
});
export type RewindPreview = z.output<typeof RewindPreview>;

export const RewindSummary = RewindPreview.extend({
  /** The automatic snapshot of the state before: roll back to it to undo this. */
  autoSnapshot: z.string(),
});
export type RewindSummary = z.output<typeof RewindSummary>;
