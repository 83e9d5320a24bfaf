import { BroadcastInput } from "@/lib/api/chat.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(BroadcastInput, (s, actor, input) => s.chat.broadcast(actor, input));
