import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const PATCH = handle(api.webhooks.update, (s, actor, input) => s.webhooks.update(actor, input));
export const DELETE = handle(api.webhooks.delete, (s, actor, input) => s.webhooks.delete(actor, input));
