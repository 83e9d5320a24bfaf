import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const DELETE = handle(api.auth.revoke, (s, actor, input) => s.auth.revoke(actor, input));
