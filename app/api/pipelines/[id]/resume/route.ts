import { PipelineRefInput } from "@/lib/api/pipelines.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(PipelineRefInput, (s, actor, input) => s.pipelines.resume(actor, input));
