/** Snapshots of a team's coordination state, with the rollback, replay and diff they allow (docs/domain.md#snapshots). */
import { deleteSnapshot, getSnapshot, listSnapshots, takeSnapshot } from "../domain/snapshots/snapshots.service.ts";
import { replay, replayPreview, rollback, rollbackPreview } from "../domain/snapshots/rollback.service.ts";
import { diff } from "../domain/snapshots/diff.ts";
import { area } from "./define.ts";
import { A_VIEW, CURSOR, LIMIT, TEAM } from "./fields.ts";

const SNAPSHOT_ID = "Snapshot id.";
const OVERRIDES = "{contractId: {inputs?, assignee?, title?}}, e.g. {'build-api': {inputs: {context: 'Use GraphQL'}}}.";
const PREVIEW = "Writes nothing: the command runs and is rolled back, so this is exactly what it would do. Needs the same right as the command itself.";

export const snapshots = area("snapshots", {
  take: {
    may: "member",
    serve: ({ deps }, a, i) => takeSnapshot(deps, a, i),
    mcp: {
      name: "team_snapshot",
      title: "Take a snapshot",
      description:
        "Capture the team's coordination state: contracts, pipelines, roster, gate counters, and pointers to the current artifact versions (cheap: no data is copied).",
      describe: { team: TEAM, id: "Snapshot id; generated when omitted.", label: "What this moment is, e.g. 'before the auth refactor'." },
    },
  },
  list: {
    may: "member",
    serve: ({ deps }, _, i) => listSnapshots(deps, i),
    mcp: {
      name: "team_snapshot_list",
      title: "List snapshots",
      description: "The team's snapshots, newest first, with what each holds.",
      describe: { team: TEAM, limit: LIMIT, cursor: CURSOR },
    },
  },
  delete: {
    may: "snapshot.delete",
    serve: ({ deps }, a, i) => deleteSnapshot(deps, a, i),
    mcp: {
      name: "team_snapshot_delete",
      title: "Delete a snapshot",
      description: "Delete a snapshot. Artifact versions are never affected.",
      describe: { team: TEAM, id: SNAPSHOT_ID },
    },
  },
  rollback: {
    may: "snapshot.rollback",
    serve: ({ deps }, a, i) => rollback(deps, a, i),
    mcp: {
      name: "team_rollback",
      title: "Roll back to a snapshot",
      description:
        "Restore contracts, pipelines, roster and gate state from a snapshot. Versions published since become 'rolled_back' (kept, readable by number). " +
        "An automatic snapshot is taken first: roll back to it (autoSnapshot in the result) to undo. team_rollback_preview shows what it will do first.",
      describe: { team: TEAM, id: SNAPSHOT_ID },
    },
  },
  rollbackPreview: {
    may: "snapshot.rollback",
    serve: ({ deps }, a, i) => rollbackPreview(deps, a, i),
    mcp: {
      name: "team_rollback_preview",
      title: "Preview a rollback",
      description: `What team_rollback would do: versions rolled back or active again, contracts and pipelines removed, restored or changed, members told. ${PREVIEW}`,
      describe: { team: TEAM, id: SNAPSHOT_ID },
    },
  },
  replay: {
    may: "snapshot.replay",
    serve: ({ deps }, a, i) => replay(deps, a, i),
    mcp: {
      name: "team_replay",
      title: "Replay from a snapshot",
      description:
        "Roll back to a snapshot, apply overrides to contracts, and re-run every overridden contract and everything downstream of it, whatever state the snapshot held them in " +
        "(their sessions are woken when they become ready). Version numbers keep increasing, so both runs' outputs stay side by side. team_replay_preview shows what it will do first.",
      describe: { team: TEAM, id: SNAPSHOT_ID, overrides: OVERRIDES },
    },
  },
  replayPreview: {
    may: "snapshot.replay",
    serve: ({ deps }, a, i) => replayPreview(deps, a, i),
    mcp: {
      name: "team_replay_preview",
      title: "Preview a replay",
      description: `What team_replay would do: the contracts that re-run (reRun: id, assignee, status before → after, why), versions rolled back, contracts and pipelines removed or restored. ${PREVIEW}`,
      describe: { team: TEAM, id: SNAPSHOT_ID, overrides: OVERRIDES },
    },
  },
  diff: {
    may: "member",
    serve: ({ deps }, _, i) => diff(deps, i),
    mcp: {
      name: "team_snapshot_diff",
      title: "Diff two states",
      description:
        "Field-level changes between two snapshots, or a snapshot and the current state ('current'), per kind: contracts, artifacts, pipelines, roster.",
      describe: { team: TEAM, a: "A snapshot id.", b: "Another snapshot id, or 'current' (default)." },
    },
  },
  get: {
    may: "member",
    serve: ({ deps }, _, i) => getSnapshot(deps, i),
    mcp: { none: A_VIEW },
  },
});
