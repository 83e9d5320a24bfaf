import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.gate.reset, (s, actor, input) => s.gate.reset(actor, input));
