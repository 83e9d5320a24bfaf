/**
 * Team options (wake-ups, gate enforcement, chat limits). Read through `teamSettings` so every
 * caller gets the documented defaults for anything the team never set.
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type TeamRow } from "../../db/rows.ts";
import { TeamSettings, type UpdateTeamSettingsInput } from "../../../lib/api/team-settings.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "./teams.service.ts";

// Keys from older versions or bad hand edits fall back to defaults instead of breaking reads.
const Stored = TeamSettings.catch(() => TeamSettings.parse({}));

export async function teamSettings(s: Sql, team: string): Promise<TeamSettings> {
  const row = await s.get<Pick<TeamRow, "settings">>(sql`SELECT "settings" FROM "Team" WHERE "id" = ${team}`);
  return row ? jsonColumn(Stored, row.settings) : TeamSettings.parse({});
}

export async function getTeamSettings({ db }: DomainDeps, input: { team: string }): Promise<TeamSettings> {
  return db.read((s) => teamSettings(s, input.team));
}

export async function updateTeamSettings({ db }: DomainDeps, actor: Principal, input: UpdateTeamSettingsInput): Promise<TeamSettings> {
  const { team, ...changes } = input;
  return db.write("team.settings", actor.name, async (tx) => {
    await authorize(tx, actor, "team.settings", { team });
    await ensureTeam(tx, team);
    const next = TeamSettings.parse({ ...(await teamSettings(tx, team)), ...changes });
    await tx.run(sql`UPDATE "Team" SET "settings" = ${JSON.stringify(next)} WHERE "id" = ${team}`);
    await tx.emit({ teamId: team, type: "team.settings_changed", subject: `team:${team}`, payload: { changes } });
    return next;
  });
}
