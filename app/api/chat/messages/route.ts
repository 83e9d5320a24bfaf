import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
// A GET: unlike the inbox, the operator's view of the team's conversation marks nothing read.
export const GET = handle(api.chat.messages, (s, actor, input) => s.chat.messages(actor, input));
