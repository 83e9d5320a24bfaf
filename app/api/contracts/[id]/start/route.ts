import { ContractRefInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(ContractRefInput, (s, actor, input) => s.contracts.start(actor, input));
