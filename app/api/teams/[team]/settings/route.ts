import { TeamRefInput } from "@/lib/api/teams.ts";
import { UpdateTeamSettingsInput } from "@/lib/api/team-settings.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TeamRefInput, (s, actor, input) => s.teams.settings(actor, input));
export const PATCH = handle(UpdateTeamSettingsInput, (s, actor, input) => s.teams.updateSettings(actor, input));
