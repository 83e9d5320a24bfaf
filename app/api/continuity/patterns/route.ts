import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.continuity.listPatterns, (s, actor, input) => s.continuity.listPatterns(actor, input));
// Insert or update, so 200 either way; the answer's `outcome` says which.
export const POST = handle(api.continuity.registerPattern, (s, actor, input) => s.continuity.registerPattern(actor, input));
