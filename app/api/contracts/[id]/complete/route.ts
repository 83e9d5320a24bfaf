import { CompleteContractInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(CompleteContractInput, (s, actor, input) => s.contracts.complete(actor, input));
