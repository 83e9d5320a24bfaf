import { ListSnapshotsInput, TakeSnapshotInput } from "@/lib/api/snapshots.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListSnapshotsInput, (s, actor, input) => s.snapshots.list(actor, input));
export const POST = handle(TakeSnapshotInput, (s, actor, input) => s.snapshots.take(actor, input), { status: 201 });
