import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.contracts.list, (s, actor, input) => s.contracts.list(actor, input));
export const POST = handle(api.contracts.create, (s, actor, input) => s.contracts.create(actor, input));
