import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

// Sends a request to the receiver now: never cached, answered once the attempt ended (at most its time limit).
export const POST = handle(api.webhooks.test, (s, actor, input) => s.webhooks.test(actor, input));
