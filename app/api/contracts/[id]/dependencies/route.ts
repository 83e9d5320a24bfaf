import { DependencyChangeInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(DependencyChangeInput, (s, actor, input) => s.contracts.addDependency(actor, input));
export const DELETE = handle(DependencyChangeInput, (s, actor, input) => s.contracts.removeDependency(actor, input));
