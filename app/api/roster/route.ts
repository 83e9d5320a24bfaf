import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.roster.list, (s, actor, input) => s.roster.list(actor, input));
export const POST = handle(api.roster.upsert, (s, actor, input) => s.roster.upsert(actor, input));
