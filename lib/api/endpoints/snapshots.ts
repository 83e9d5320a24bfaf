import { endpoint, Unchecked } from "../endpoint.ts";
import { DiffInput, ListSnapshotsInput, ReplayInput, SnapshotRefInput, TakeSnapshotInput } from "../snapshots.ts";

export const snapshots = {
  list: endpoint({ method: "GET", path: "/snapshots", input: ListSnapshotsInput, output: Unchecked }),
  take: endpoint({ method: "POST", path: "/snapshots", input: TakeSnapshotInput, output: Unchecked, status: 201 }),
  delete: endpoint({ method: "DELETE", path: "/snapshots/:id", input: SnapshotRefInput, output: Unchecked }),
  get: endpoint({ method: "GET", path: "/snapshots/:id", input: SnapshotRefInput, output: Unchecked }),
  replay: endpoint({ method: "POST", path: "/snapshots/:id/replay", input: ReplayInput, output: Unchecked }),
  replayPreview: endpoint({ method: "POST", path: "/snapshots/:id/replay/preview", input: ReplayInput, output: Unchecked }),
  rollback: endpoint({ method: "POST", path: "/snapshots/:id/rollback", input: SnapshotRefInput, output: Unchecked }),
  rollbackPreview: endpoint({ method: "POST", path: "/snapshots/:id/rollback/preview", input: SnapshotRefInput, output: Unchecked }),
  diff: endpoint({ method: "GET", path: "/snapshots/diff", input: DiffInput, output: Unchecked }),
};
