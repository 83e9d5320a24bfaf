import { BatchSpawnInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(BatchSpawnInput, (s, actor, input) => s.sessions.batch(actor, input), { status: 201 });
