import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.chat.unread, (s, actor, input) => s.chat.unread(actor, input));
