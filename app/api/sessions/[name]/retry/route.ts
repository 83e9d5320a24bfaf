import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(api.sessions.retry, (s, actor, input) => s.sessions.retry(actor, input));
