import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.lineage.stale, (s, actor, input) => s.lineage.stale(actor, input));
