import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.continuity.listDecisions, (s, actor, input) => s.continuity.listDecisions(actor, input));
export const POST = handle(api.continuity.recordDecision, (s, actor, input) => s.continuity.recordDecision(actor, input));
