import { SessionRef } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(SessionRef, (s, actor, input) => s.sessions.status(actor, input));
export const DELETE = handle(SessionRef, (s, actor, input) => s.sessions.delete(actor, input));
