import { AskInput } from "@/lib/api/chat.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
/** Answers when the reply arrives or the timeout passes; a client that disconnects ends the wait. */
export const POST = handle(AskInput, (s, actor, input, signal) => s.chat.ask(actor, input, signal));
