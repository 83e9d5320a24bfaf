import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(api.sessions.send, (s, actor, input, signal) => s.sessions.send(actor, input, signal));
