import { ContractRefInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ContractRefInput, (s, actor, input) => s.contracts.get(actor, input));
