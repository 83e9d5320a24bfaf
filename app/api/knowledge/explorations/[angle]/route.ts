import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.knowledge.lookupExploration, (s, actor, input) => s.knowledge.lookupExploration(actor, input));
