import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
// Not under /api/tokens/: that path's [name] segment revokes tokens, and 'operator' is a name there.
export const GET = handle(api.auth.operatorToken, (s, actor) => s.auth.operatorToken(actor));
