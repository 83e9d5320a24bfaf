import { z } from "zod";
import { endpoint, NoInput } from "../endpoint.ts";
import { TeamSettings, UpdateTeamSettingsInput } from "../team-settings.ts";
import { CreateTeamInput, QuickStartDemo, TeamRefInput, TeamView } from "../teams.ts";
import { TeamPermissions, TeamPermissionsInput } from "../permissions.ts";

export const teams = {
  list: endpoint({ method: "GET", path: "/teams", input: NoInput, output: z.array(TeamView) }),
  create: endpoint({ method: "POST", path: "/teams", input: CreateTeamInput, output: TeamView, status: 201 }),
  archive: endpoint({ method: "POST", path: "/teams/:team/archive", input: TeamRefInput, output: TeamView, effect: "destructive" }),
  /** The Quick Start chain in an empty team, as a demo (docs/domain.md#quick-start-demo). */
  demo: endpoint({ method: "POST", path: "/teams/:team/demo", input: TeamRefInput, output: QuickStartDemo, status: 201 }),
  settings: endpoint({ method: "GET", path: "/teams/:team/settings", input: TeamRefInput, output: TeamSettings }),
  updateSettings: endpoint({ method: "PATCH", path: "/teams/:team/settings", input: UpdateTeamSettingsInput, output: TeamSettings }),
  /** What the caller may do in the team, and who may otherwise (docs/dashboard.md#who-may). */
  permissions: endpoint({ method: "GET", path: "/teams/:team/permissions", input: TeamPermissionsInput, output: TeamPermissions }),
};
