import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.continuity.briefing, (s, actor, input) => s.continuity.briefing(actor, input));
export const POST = handle(api.continuity.briefingPost, (s, actor, input) => s.continuity.briefing(actor, input));
