import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.continuity.latestCheckpoint, (s, actor, input) => s.continuity.latestCheckpoint(actor, input));
