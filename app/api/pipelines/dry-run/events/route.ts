import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(api.pipelines.matchingEvents, (s, actor, input) => s.pipelines.matchingEvents(actor, input));
