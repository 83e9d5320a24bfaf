import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.sessions.status, (s, actor, input) => s.sessions.status(actor, input));
export const DELETE = handle(api.sessions.delete, (s, actor, input) => s.sessions.delete(actor, input));
