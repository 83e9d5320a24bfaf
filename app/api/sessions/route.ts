import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.sessions.list, (s, actor, input) => s.sessions.list(actor, input));
export const POST = handle(api.sessions.spawn, (s, actor, input) => s.sessions.spawn(actor, input));
