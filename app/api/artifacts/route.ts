import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.artifacts.list, (s, actor, input) => s.artifacts.list(actor, input));
export const POST = handle(api.artifacts.publish, (s, actor, input) => s.artifacts.publish(actor, input));
