import { CleanupInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(CleanupInput, (s, actor, input) => s.sessions.cleanup(actor, input));
