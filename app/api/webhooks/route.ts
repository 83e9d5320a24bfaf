import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.webhooks.list, (s, actor, input) => s.webhooks.list(actor, input));
export const POST = handle(api.webhooks.create, (s, actor, input) => s.webhooks.create(actor, input));
