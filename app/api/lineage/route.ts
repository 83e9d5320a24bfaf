import { LineageInput } from "@/lib/api/lineage.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(LineageInput, (s, actor, input) => s.lineage.graph(actor, input));
