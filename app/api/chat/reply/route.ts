import { ReplyInput } from "@/lib/api/chat.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(ReplyInput, (s, actor, input) => s.chat.reply(actor, input));
