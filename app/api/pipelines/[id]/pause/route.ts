import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.pipelines.pause, (s, actor, input) => s.pipelines.pause(actor, input));
