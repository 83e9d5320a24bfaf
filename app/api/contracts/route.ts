import { CreateContractInput, ListContractsInput } from "@/lib/api/contracts.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListContractsInput, (s, actor, input) => s.contracts.list(actor, input));
export const POST = handle(CreateContractInput, (s, actor, input) => s.contracts.create(actor, input), { status: 201 });
