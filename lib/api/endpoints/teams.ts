import { endpoint, NoInput, Unchecked } from "../endpoint.ts";
import { UpdateTeamSettingsInput } from "../team-settings.ts";
import { CreateTeamInput, TeamRefInput } from "../teams.ts";

export const teams = {
  list: endpoint({ method: "GET", path: "/teams", input: NoInput, output: Unchecked }),
  create: endpoint({ method: "POST", path: "/teams", input: CreateTeamInput, output: Unchecked, status: 201 }),
  archive: endpoint({ method: "POST", path: "/teams/:team/archive", input: TeamRefInput, output: Unchecked }),
  settings: endpoint({ method: "GET", path: "/teams/:team/settings", input: TeamRefInput, output: Unchecked }),
  updateSettings: endpoint({ method: "PATCH", path: "/teams/:team/settings", input: UpdateTeamSettingsInput, output: Unchecked }),
};
