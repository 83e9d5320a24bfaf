import { SendMessageInput } from "@/lib/api/chat.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(SendMessageInput, (s, actor, input) => s.chat.send(actor, input));
