import { TeamRefInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TeamRefInput, (s, actor, input) => s.overview(actor, input));
