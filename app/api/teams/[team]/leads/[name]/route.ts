import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const DELETE = handle(api.leads.revoke, (s, actor, input) => s.leads.revoke(actor, input));
