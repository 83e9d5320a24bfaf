import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.pipelines.resume, (s, actor, input) => s.pipelines.resume(actor, input));
