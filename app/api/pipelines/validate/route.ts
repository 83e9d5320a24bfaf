import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

// Writes nothing and answers 200 with the issues, so an editor can show them while a person types.
export const POST = handle(api.pipelines.validate, (s, actor, input) => s.pipelines.validate(actor, input));
