import { ReassignContractInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(ReassignContractInput, (s, actor, input) => s.contracts.reassign(actor, input));
