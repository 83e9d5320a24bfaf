import { SnapshotRefInput } from "@/lib/api/snapshots.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(SnapshotRefInput, (s, actor, input) => s.snapshots.get(actor, input));
export const DELETE = handle(SnapshotRefInput, (s, actor, input) => s.snapshots.delete(actor, input));
