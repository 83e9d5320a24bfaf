import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
// POST, not GET: checking marks the returned messages read.
export const POST = handle(api.chat.inbox, (s, actor, input) => s.chat.inbox(actor, input));
