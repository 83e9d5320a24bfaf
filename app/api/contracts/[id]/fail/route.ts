import { ReasonInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(ReasonInput, (s, actor, input) => s.contracts.fail(actor, input));
