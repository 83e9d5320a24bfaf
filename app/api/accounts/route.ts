import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.limits.list, (s, actor, input) => s.limits.list(actor, input));
