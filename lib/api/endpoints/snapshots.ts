import { endpoint } from "../endpoint.ts";
import {
  DiffInput,
  ListSnapshotsInput,
  ReplayInput,
  RewindPreview,
  RewindSummary,
  SnapshotDeleted,
  SnapshotDetail,
  SnapshotMeta,
  SnapshotPage,
  SnapshotRefInput,
  StateDiff,
  TakeSnapshotInput,
} from "../snapshots.ts";

export const snapshots = {
  list: endpoint({ method: "GET", path: "/snapshots", input: ListSnapshotsInput, output: SnapshotPage }),
  take: endpoint({ method: "POST", path: "/snapshots", input: TakeSnapshotInput, output: SnapshotMeta, status: 201 }),
  delete: endpoint({ method: "DELETE", path: "/snapshots/:id", input: SnapshotRefInput, output: SnapshotDeleted }),
  get: endpoint({ method: "GET", path: "/snapshots/:id", input: SnapshotRefInput, output: SnapshotDetail }),
  replay: endpoint({ method: "POST", path: "/snapshots/:id/replay", input: ReplayInput, output: RewindSummary, effect: "destructive" }),
  /** What the replay would do, written nothing: POST because the overrides travel in the body. */
  replayPreview: endpoint({ method: "POST", path: "/snapshots/:id/replay/preview", input: ReplayInput, output: RewindPreview, effect: "read" }),
  rollback: endpoint({ method: "POST", path: "/snapshots/:id/rollback", input: SnapshotRefInput, output: RewindSummary, effect: "destructive" }),
  /** What the rollback would do, written nothing. */
  rollbackPreview: endpoint({ method: "POST", path: "/snapshots/:id/rollback/preview", input: SnapshotRefInput, output: RewindPreview, effect: "read" }),
  diff: endpoint({ method: "GET", path: "/snapshots/diff", input: DiffInput, output: StateDiff }),
};
