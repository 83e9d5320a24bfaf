import { ListPatternsInput, RegisterPatternInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListPatternsInput, (s, actor, input) => s.continuity.listPatterns(actor, input));
// Insert or update, so 200 either way; the answer's `outcome` says which.
export const POST = handle(RegisterPatternInput, (s, actor, input) => s.continuity.registerPattern(actor, input));
