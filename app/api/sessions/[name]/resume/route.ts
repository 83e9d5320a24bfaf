import { SessionRef } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(SessionRef, (s, actor, input) => s.sessions.resume(actor, input));
