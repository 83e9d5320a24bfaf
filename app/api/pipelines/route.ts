import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.pipelines.list, (s, actor, input) => s.pipelines.list(actor, input));
export const POST = handle(api.pipelines.create, (s, actor, input) => s.pipelines.create(actor, input));
