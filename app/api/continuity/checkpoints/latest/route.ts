import { LatestCheckpointInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(LatestCheckpointInput, (s, actor, input) => s.continuity.latestCheckpoint(actor, input));
