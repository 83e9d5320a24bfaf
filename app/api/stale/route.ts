import { StaleInput } from "@/lib/api/lineage.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(StaleInput, (s, actor, input) => s.lineage.stale(actor, input));
