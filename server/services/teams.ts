/** Teams, their settings and budgets, the roster, the hubs and the usage limits of the accounts sessions run on. */
import type { Operations } from "../operations.ts";
import { archiveTeam, createTeam, listTeams } from "../domain/teams/teams.service.ts";
import { runQuickStartDemo } from "../domain/teams/quickstart-demo.ts";
import { getTeamSettings, updateTeamSettings } from "../domain/teams/settings.ts";
import { teamPermissions } from "../domain/auth/permissions.ts";
import { listBudgets, ownBudgets, setBudget } from "../domain/budgets/budgets.service.ts";
import { listRoster, upsertMember } from "../domain/roster/roster.service.ts";
import { accountHolds, releaseAccount } from "../domain/accounts/limits.ts";
import { listHubs } from "../domain/hubs/hubs.service.ts";
import type { ServiceContext } from "./context.ts";

export const teamServices = ({ deps }: ServiceContext) =>
  ({
    list: () => listTeams(deps),
    create: (a, i) => createTeam(deps, a, i),
    archive: (a, i) => archiveTeam(deps, a, i),
    demo: (a, i) => runQuickStartDemo(deps, a, i),
    settings: (_, i) => getTeamSettings(deps, i),
    updateSettings: (a, i) => updateTeamSettings(deps, a, i),
    permissions: (a, i) => teamPermissions(deps, a, i),
  }) satisfies Operations<"teams">;

/** Team, member and contract budgets (docs/budgets.md). */
export const budgetServices = ({ deps }: ServiceContext) =>
  ({
    set: (a, i) => setBudget(deps, a, i),
    list: (a, i) => listBudgets(deps, a, i),
    own: (a, i) => ownBudgets(deps, a, i),
  }) satisfies Operations<"budgets">;

export const rosterServices = ({ deps }: ServiceContext) =>
  ({
    list: (_, i) => listRoster(deps, i),
    upsert: (a, i) => upsertMember(deps, a, i),
  }) satisfies Operations<"roster">;

/** The hubs sharing the database and their health (docs/hubs.md). */
export const hubServices = ({ deps }: ServiceContext) => ({ list: (a) => listHubs(deps, a) }) satisfies Operations<"hubs">;

/** Usage limits of the accounts sessions run on (docs/limits.md). */
export const limitServices = ({ deps, info }: ServiceContext) =>
  ({
    list: (_, i) => deps.db.read((sql) => accountHolds(sql, i.team)),
    release: (a, i) => releaseAccount(deps, a, i, info.maxLiveSessions),
  }) satisfies Operations<"limits">;
