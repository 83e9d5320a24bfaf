import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
/** Answers when the reply arrives or the timeout passes; a client that disconnects ends the wait. */
export const POST = handle(api.chat.ask, (s, actor, input, signal) => s.chat.ask(actor, input, signal));
