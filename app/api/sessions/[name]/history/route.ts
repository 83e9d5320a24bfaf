import { HistoryInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(HistoryInput, (s, actor, input) => s.sessions.history(actor, input));
