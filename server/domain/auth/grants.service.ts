/**
 * Lead grants (docs/security.md#capabilities): the operator lets a member or agent do a team's team-wide operations (reset,
 * rollback, settings, approvals, …) on that one team. Only the operator grants, revokes and lists.
 */
import { sql } from "../../db/sql.ts";
import type { PrincipalRow, TeamGrantRow } from "../../db/rows.ts";
import { conflict, notFound } from "../../errors.ts";
import { LeadView, type LeadRefInput } from "../../../lib/api/leads.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { authorize } from "./capabilities.ts";

const SELECT = sql`SELECT "teamId" AS "team", "principal", "role", "grantedBy", "createdAt" FROM "TeamGrant"`;
type Grant = { team: TeamGrantRow["teamId"] } & Pick<TeamGrantRow, "principal" | "role" | "grantedBy" | "createdAt">;
// Every read here selects role 'lead'.
const toView = (g: Grant): LeadView => ({ ...g, role: LeadView.shape.role.parse(g.role) });

export async function grantLead({ db }: DomainDeps, actor: Principal, input: LeadRefInput): Promise<LeadView> {
  return db.write("team.lead_grant", actor.name, async (tx) => {
    await authorize(tx, actor, "leads.grant", { team: null });
    const principal = await tx.get<Pick<PrincipalRow, "kind">>(sql`SELECT "kind" FROM "Principal" WHERE "name" = ${input.name}`);
    if (!principal) throw notFound("principal", input.name, "name");
    if (principal.kind === "operator") {
      throw conflict(`'${input.name}' is the operator, who already may do everything`, { field: "name", rule: "not_operator" });
    }
    await ensureTeam(tx, input.team);
    const added = await tx.run(
      sql`INSERT INTO "TeamGrant" ("teamId","principal","role","grantedBy","createdAt") VALUES (${input.team},${input.name},'lead',${actor.name},${tx.now}) ON CONFLICT DO NOTHING`,
    );
    if (!added.changes) throw conflict(`'${input.name}' is already a lead of team '${input.team}'`, { field: "name", rule: "unique" });
    const payload = { team: input.team, principal: input.name, by: actor.name };
    await tx.emit({ teamId: input.team, type: "team.lead_granted", subject: `team:${input.team}`, payload });
    return toView((await tx.get<Grant>(sql`${SELECT} WHERE "teamId" = ${input.team} AND "principal" = ${input.name} AND "role" = 'lead'`))!);
  });
}

export async function revokeLead({ db }: DomainDeps, actor: Principal, input: LeadRefInput): Promise<{ revoked: string; team: string }> {
  return db.write("team.lead_revoke", actor.name, async (tx) => {
    await authorize(tx, actor, "leads.revoke", { team: null });
    const r = await tx.run(sql`DELETE FROM "TeamGrant" WHERE "teamId" = ${input.team} AND "principal" = ${input.name} AND "role" = 'lead'`);
    if (!r.changes) throw notFound(`lead of team '${input.team}'`, input.name, "name");
    const payload = { team: input.team, principal: input.name, by: actor.name };
    await tx.emit({ teamId: input.team, type: "team.lead_revoked", subject: `team:${input.team}`, payload });
    return { revoked: input.name, team: input.team };
  });
}

export async function listLeads({ db }: DomainDeps, actor: Principal, input: { team: string }): Promise<LeadView[]> {
  return db.read(async (s) => {
    await authorize(s, actor, "leads.list", { team: null });
    return (await s.all<Grant>(sql`${SELECT} WHERE "teamId" = ${input.team} AND "role" = 'lead' ORDER BY "principal"`)).map(toView);
  });
}
