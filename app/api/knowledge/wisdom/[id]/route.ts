import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const PATCH = handle(api.knowledge.editWisdom, (s, actor, input) => s.knowledge.editWisdom(actor, input));
export const DELETE = handle(api.knowledge.deleteWisdom, (s, actor, input) => s.knowledge.deleteWisdom(actor, input));
