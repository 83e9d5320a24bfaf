import { SnapshotRefInput } from "@/lib/api/snapshots.ts";
import { handle } from "@/server/http/handle.ts";

/** What the rollback would do, written nothing. */
export const POST = handle(SnapshotRefInput, (s, actor, input) => s.snapshots.rollbackPreview(actor, input));
