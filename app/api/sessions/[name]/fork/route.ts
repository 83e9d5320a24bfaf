import { ForkInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(ForkInput, (s, actor, input) => s.sessions.fork(actor, input), { status: 201 });
