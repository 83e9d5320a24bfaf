import { DiffInput, ListSnapshotsInput, ReplayInput, SnapshotRefInput, TakeSnapshotInput } from "../../../lib/api/snapshots.ts";
import { tool } from "../tool.ts";
import { CURSOR, LIMIT, TEAM } from "./common.ts";

const SNAPSHOT_ID = "Snapshot id.";

export const snapshotTools = [
  tool({
    name: "team_snapshot",
    title: "Take a snapshot",
    description: "Capture the team's coordination state: contracts, pipelines, roster, gate counters, and pointers to the current artifact versions (cheap: no data is copied).",
    schema: TakeSnapshotInput,
    describe: { team: TEAM, id: "Snapshot id; generated when omitted.", label: "What this moment is, e.g. 'before the auth refactor'." },
    kind: "write",
    run: (s, actor, input) => s.snapshots.take(actor, input),
  }),
  tool({
    name: "team_snapshot_list",
    title: "List snapshots",
    description: "The team's snapshots, newest first, with what each holds.",
    schema: ListSnapshotsInput,
    describe: { team: TEAM, limit: LIMIT, cursor: CURSOR },
    kind: "read",
    run: (s, actor, input) => s.snapshots.list(actor, input),
  }),
  tool({
    name: "team_snapshot_delete",
    title: "Delete a snapshot",
    description: "Delete a snapshot. Artifact versions are never affected.",
    schema: SnapshotRefInput,
    describe: { team: TEAM, id: SNAPSHOT_ID },
    kind: "destructive",
    run: (s, actor, input) => s.snapshots.delete(actor, input),
  }),
  tool({
    name: "team_rollback",
    title: "Roll back to a snapshot",
    description:
      "Restore contracts, pipelines, roster and gate state from a snapshot. Versions published since become 'rolled_back' (kept, readable by number). " +
      "An automatic snapshot is taken first: roll back to it (autoSnapshot in the result) to undo.",
    schema: SnapshotRefInput,
    describe: { team: TEAM, id: SNAPSHOT_ID },
    kind: "destructive",
    run: (s, actor, input) => s.snapshots.rollback(actor, input),
  }),
  tool({
    name: "team_replay",
    title: "Replay from a snapshot",
    description: "Roll back to a snapshot, apply overrides to contracts, and re-resolve so the work starts again. Version numbers keep increasing, so both runs stay side by side.",
    schema: ReplayInput,
    describe: { team: TEAM, id: SNAPSHOT_ID, overrides: "{contractId: {inputs?, assignee?, title?}}, e.g. {'build-api': {inputs: {context: 'Use GraphQL'}}}." },
    kind: "destructive",
    run: (s, actor, input) => s.snapshots.replay(actor, input),
  }),
  tool({
    name: "team_snapshot_diff",
    title: "Diff two states",
    description: "Field-level changes between two snapshots, or a snapshot and the current state ('current'), per kind: contracts, artifacts, pipelines, roster.",
    schema: DiffInput,
    describe: { team: TEAM, a: "A snapshot id.", b: "Another snapshot id, or 'current' (default)." },
    kind: "read",
    run: (s, actor, input) => s.snapshots.diff(actor, input),
  }),
];
