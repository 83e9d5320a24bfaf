import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(api.sessions.continue, (s, actor, input, signal) => s.sessions.continue(actor, input, signal));
