import { SendInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(SendInput, (s, actor, input, signal) => s.sessions.send(actor, input, signal));
