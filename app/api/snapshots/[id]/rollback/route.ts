import { SnapshotRefInput } from "@/lib/api/snapshots.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(SnapshotRefInput, (s, actor, input) => s.snapshots.rollback(actor, input));
