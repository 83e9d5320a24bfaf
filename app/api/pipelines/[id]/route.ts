import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.pipelines.get, (s, actor, input) => s.pipelines.get(actor, input));
export const PUT = handle(api.pipelines.update, (s, actor, input) => s.pipelines.update(actor, input));
export const DELETE = handle(api.pipelines.delete, (s, actor, input) => s.pipelines.delete(actor, input));
