import { RecordCheckpointInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(RecordCheckpointInput, (s, actor, input) => s.continuity.recordCheckpoint(actor, input), { status: 201 });
