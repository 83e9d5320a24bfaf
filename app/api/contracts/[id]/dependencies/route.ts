import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.contracts.addDependency, (s, actor, input) => s.contracts.addDependency(actor, input));
export const DELETE = handle(api.contracts.removeDependency, (s, actor, input) => s.contracts.removeDependency(actor, input));
