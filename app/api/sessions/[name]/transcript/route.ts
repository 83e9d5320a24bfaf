import { TranscriptInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TranscriptInput, (s, actor, input) => s.sessions.transcript(actor, input));
