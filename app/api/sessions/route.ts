import { ListSessionsInput, SpawnInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListSessionsInput, (s, actor, input) => s.sessions.list(actor, input));
export const POST = handle(SpawnInput, (s, actor, input) => s.sessions.spawn(actor, input), { status: 201 });
