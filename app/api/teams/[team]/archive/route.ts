import { TeamRefInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(TeamRefInput, (s, actor, input) => s.teams.archive(actor, input));
