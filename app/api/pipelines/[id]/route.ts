import { PipelineLogInput, PipelineRefInput } from "@/lib/api/pipelines.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(PipelineLogInput, (s, actor, input) => s.pipelines.get(actor, input));
export const DELETE = handle(PipelineRefInput, (s, actor, input) => s.pipelines.delete(actor, input));
