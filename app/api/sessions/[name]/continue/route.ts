import { ContinueInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(ContinueInput, (s, actor, input, signal) => s.sessions.continue(actor, input, signal));
