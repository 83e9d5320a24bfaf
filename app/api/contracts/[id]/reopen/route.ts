import { ReopenContractInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(ReopenContractInput, (s, actor, input) => s.contracts.reopen(actor, input));
