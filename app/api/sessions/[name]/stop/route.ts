import { EndSessionInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(EndSessionInput, (s, actor, input) => s.sessions.stop(actor, input));
