import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.contracts.reassign, (s, actor, input) => s.contracts.reassign(actor, input));
