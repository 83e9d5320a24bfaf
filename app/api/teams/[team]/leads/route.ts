import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.leads.list, (s, actor, input) => s.leads.list(actor, input));
export const POST = handle(api.leads.grant, (s, actor, input) => s.leads.grant(actor, input));
