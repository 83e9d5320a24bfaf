import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.gate.check, (s, actor, input) => s.gate.check(actor, input));
