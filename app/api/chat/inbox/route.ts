import { CheckInboxInput } from "@/lib/api/chat.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
// POST, not GET: checking marks the returned messages read.
export const POST = handle(CheckInboxInput, (s, actor, input) => s.chat.inbox(actor, input));
