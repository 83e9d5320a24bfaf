import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.contracts.start, (s, actor, input) => s.contracts.start(actor, input));
