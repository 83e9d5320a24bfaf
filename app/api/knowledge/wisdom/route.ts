import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.knowledge.listWisdom, (s, actor, input) => s.knowledge.listWisdom(actor, input));
export const POST = handle(api.knowledge.appendWisdom, (s, actor, input) => s.knowledge.appendWisdom(actor, input));
