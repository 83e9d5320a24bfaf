import { BriefingInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(BriefingInput, (s, actor, input) => s.continuity.briefing(actor, input));
// A read, but git facts (a list of files) do not fit a query string: POST carries them in the body.
export const POST = GET;
