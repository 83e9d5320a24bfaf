/**
 * The caller's permissions in a team, read from the one capability table (./capabilities.ts) with the same `permits`
 * every operation calls (docs/dashboard.md#who-may). Only operations whose target is the team itself are listed: those
 * of a session, contract or pipeline also depend on who owns it, and the operation's own check says so.
 */
import type { TeamPermissions, TeamPermissionsInput } from "../../../lib/api/permissions.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { CAPABILITIES, permitsMany, type Operation } from "./capabilities.ts";

/** Who may, in words: "the operator", "a lead of team 'auth' or the operator", "anyone". */
function whoMay(rule: string, team: string): string {
  if (rule === "operator") return "the operator";
  if (rule === "anyone") return "anyone";
  return `a lead of team '${team}' or the operator`;
}

export async function teamPermissions({ db }: DomainDeps, actor: Principal, input: TeamPermissionsInput): Promise<TeamPermissions> {
  return db.read(async (sql) => {
    const may = permitsMany(sql, actor);
    const teamWide = (Object.entries(CAPABILITIES) as Array<[Operation, { rule: string }]>).filter(([, c]) => c.rule !== "owner");
    const permissions = await Promise.all(
      teamWide.map(async ([operation, c]) => ({ operation, may: await may(operation, { team: input.team }), who: whoMay(c.rule, input.team) })),
    );
    return { team: input.team, principal: actor.name, permissions };
  });
}
