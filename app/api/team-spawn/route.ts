import { TeamSpawnInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(TeamSpawnInput, (s, actor, input) => s.sessions.teamSpawn(actor, input), { status: 201 });
