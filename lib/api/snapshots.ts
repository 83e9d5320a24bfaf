/**
 * Inputs of snapshots, rollback, replay and diff (docs/domain.md#snapshots). Snapshot ids follow the entity id rule;
 * `current` is reserved because a diff side names the team's live state with it.
 */
import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { Cursor, JsonObject, Limit, TeamParam } from "./common.ts";

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
        issue.code === "invalid_key" ? "must be keyed by contract ids (^[a-z0-9][a-z0-9._-]{0,127}$)" : "must be an object {contractId: override}",
    })
    .default({}),
});
export type ReplayInput = z.infer<typeof ReplayInput>;

/** Each side is a snapshot id or `current`. */
export const DiffInput = z.object({ team: TeamParam, a: EntityId, b: EntityId.default(CURRENT) });
export type DiffInput = z.infer<typeof DiffInput>;

/*
 * What a rollback or replay reports (its preview too): written once here, for the domain that
 * builds it and the CLI and dashboard that read it.
 */
type Move = { from: string | null; to: string | null };
/** A contract whose existence (null), status or assignee a rewind changed. */
export type ContractMove = { id: string; status: Move; assignee: Move };
/** A contract that starts a new run: its status before the replay (null: it did not exist), in the snapshot, and after. */
export type ReRunEntry = { id: string; assignee: string; from: string | null; snapshot: string; to: string; because: string; waitsFor: string[] };
/** Contracts and pipelines, by id, that a rewind takes away or brings back. */
export type Entities = { contracts: string[]; contractsCount: number; pipelines: string[]; pipelinesCount: number };

export type RewindSummary = {
  team: string;
  snapshot: string;
  /** True for a preview: nothing was written. */
  dryRun: boolean;
  /** The automatic snapshot of the state before: roll back to it to undo this. */
  autoSnapshot: string;
  rolledBackVersions: string[];
  rolledBackCount: number;
  /** Versions rolled back after the capture that are active again. */
  reactivatedVersions: string[];
  reactivatedCount: number;
  /** Replay only: the overridden contracts and everything downstream of them, upstream first. */
  reRun: ReRunEntry[];
  reRunCount: number;
  /** There now, not in the snapshot. */
  removed: Entities;
  /** In the snapshot, not there now. */
  restored: Entities;
  /** Pipelines in both whose status or rules go back to the snapshot's. */
  pipelinesChanged: string[];
  contractsChanged: ContractMove[];
  contractsChangedCount: number;
  membersNotified: number;
  /** Messages a team reset archived under this snapshot, back in their inboxes. */
  messagesRestored: number;
  /** Replay only: the fields each override really changed, old → new. */
  overridden: Record<string, Record<string, { old: unknown; new: unknown }>>;
};
/** What a rollback or replay would do; no automatic snapshot is kept, so it has no undo point. */
export type RewindPreview = Omit<RewindSummary, "autoSnapshot">;
