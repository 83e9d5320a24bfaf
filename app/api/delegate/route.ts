import { DelegateInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(DelegateInput, (s, actor, input, signal) => s.sessions.delegate(actor, input, signal));
