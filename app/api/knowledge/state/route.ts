import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.knowledge.teamState, (s, actor, input) => s.knowledge.teamState(actor, input));
export const POST = handle(api.knowledge.stateUpdate, (s, actor, input) => s.knowledge.stateUpdate(actor, input));
