import { RegisterTypeInput } from "@/lib/api/artifacts.ts";
import { TeamRefInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TeamRefInput, (s, actor, input) => s.artifacts.types(actor, input));
export const POST = handle(RegisterTypeInput, (s, actor, input) => s.artifacts.registerType(actor, input), { status: 201 });
