import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.knowledge.listExplorations, (s, actor, input) => s.knowledge.listExplorations(actor, input));
export const POST = handle(api.knowledge.recordExploration, (s, actor, input) => s.knowledge.recordExploration(actor, input));
