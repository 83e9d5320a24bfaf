import { PatternRefInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(PatternRefInput, (s, actor, input) => s.continuity.getPattern(actor, input));
