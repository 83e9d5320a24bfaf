import { tool } from "../tool.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { CURSOR, LIMIT, TEAM } from "./common.ts";

const SNAPSHOT_ID = "Snapshot id.";
const OVERRIDES = "{contractId: {inputs?, assignee?, title?}}, e.g. {'build-api': {inputs: {context: 'Use GraphQL'}}}.";
const PREVIEW = "Writes nothing: the command runs and is rolled back, so this is exactly what it would do. Needs the same right as the command itself.";

export const snapshotTools = [
  tool({
    name: "team_snapshot",
    title: "Take a snapshot",
    description:
      "Capture the team's coordination state: contracts, pipelines, roster, gate counters, and pointers to the current artifact versions (cheap: no data is copied).",
    endpoint: api.snapshots.take,
    describe: { team: TEAM, id: "Snapshot id; generated when omitted.", label: "What this moment is, e.g. 'before the auth refactor'." },
  }),
  tool({
    name: "team_snapshot_list",
    title: "List snapshots",
    description: "The team's snapshots, newest first, with what each holds.",
    endpoint: api.snapshots.list,
    describe: { team: TEAM, limit: LIMIT, cursor: CURSOR },
  }),
  tool({
    name: "team_snapshot_delete",
    title: "Delete a snapshot",
    description: "Delete a snapshot. Artifact versions are never affected.",
    endpoint: api.snapshots.delete,
    describe: { team: TEAM, id: SNAPSHOT_ID },
  }),
  tool({
    name: "team_rollback",
    title: "Roll back to a snapshot",
    description:
      "Restore contracts, pipelines, roster and gate state from a snapshot. Versions published since become 'rolled_back' (kept, readable by number). " +
      "An automatic snapshot is taken first: roll back to it (autoSnapshot in the result) to undo. team_rollback_preview shows what it will do first.",
    endpoint: api.snapshots.rollback,
    describe: { team: TEAM, id: SNAPSHOT_ID },
  }),
  tool({
    name: "team_rollback_preview",
    title: "Preview a rollback",
    description: `What team_rollback would do: versions rolled back or active again, contracts and pipelines removed, restored or changed, members told. ${PREVIEW}`,
    endpoint: api.snapshots.rollbackPreview,
    describe: { team: TEAM, id: SNAPSHOT_ID },
  }),
  tool({
    name: "team_replay",
    title: "Replay from a snapshot",
    description:
      "Roll back to a snapshot, apply overrides to contracts, and re-run every overridden contract and everything downstream of it, whatever state the snapshot held them in " +
      "(their sessions are woken when they become ready). Version numbers keep increasing, so both runs' outputs stay side by side. team_replay_preview shows what it will do first.",
    endpoint: api.snapshots.replay,
    describe: { team: TEAM, id: SNAPSHOT_ID, overrides: OVERRIDES },
  }),
  tool({
    name: "team_replay_preview",
    title: "Preview a replay",
    description: `What team_replay would do: the contracts that re-run (reRun: id, assignee, status before → after, why), versions rolled back, contracts and pipelines removed or restored. ${PREVIEW}`,
    endpoint: api.snapshots.replayPreview,
    describe: { team: TEAM, id: SNAPSHOT_ID, overrides: OVERRIDES },
  }),
  tool({
    name: "team_snapshot_diff",
    title: "Diff two states",
    description:
      "Field-level changes between two snapshots, or a snapshot and the current state ('current'), per kind: contracts, artifacts, pipelines, roster.",
    endpoint: api.snapshots.diff,
    describe: { team: TEAM, a: "A snapshot id.", b: "Another snapshot id, or 'current' (default)." },
  }),
];
