import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.webhooks.deliveries, (s, actor, input) => s.webhooks.deliveries(actor, input));
