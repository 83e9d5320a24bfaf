import { ImpactInput } from "@/lib/api/lineage.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ImpactInput, (s, actor, input) => s.lineage.impact(actor, input));
