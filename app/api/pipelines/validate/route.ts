import { ValidatePipelineInput } from "@/lib/api/pipelines.ts";
import { handle } from "@/server/http/handle.ts";

// Writes nothing and answers 200 with the issues, so an editor can show them while a person types.
export const POST = handle(ValidatePipelineInput, (s, actor, input) => s.pipelines.validate(actor, input));
