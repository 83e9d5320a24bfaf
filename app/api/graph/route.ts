import { GraphInput } from "@/lib/api/graph.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(GraphInput, (s, actor, input) => s.graph(actor, input));
