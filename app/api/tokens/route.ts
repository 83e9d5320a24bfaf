import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.auth.list, (s, actor) => s.auth.list(actor));
export const POST = handle(api.auth.createToken, (s, actor, input) => s.auth.createToken(actor, input));
