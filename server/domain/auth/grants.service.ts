/**
 * Lead grants (docs/security.md#capabilities): the operator lets a member or agent do a team's team-wide operations (reset,
 * rollback, settings, approvals, …) on that one team. Only the operator grants, revokes and lists.
 */
import { conflict, notFound } from "../../errors.ts";
import type { LeadRefInput, LeadView } from "../../../lib/api/leads.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { authorize } from "./capabilities.ts";

const SELECT = `SELECT "teamId" AS "team", "principal", "role", "grantedBy", "createdAt" FROM "TeamGrant"`;

export async function grantLead({ db }: DomainDeps, actor: Principal, input: LeadRefInput): Promise<LeadView> {
  return db.write("team.lead_grant", actor.name, async (tx) => {
    await authorize(tx, actor, "leads.grant", { team: null });
    const principal = await tx.get<{ kind: string }>(`SELECT "kind" FROM "Principal" WHERE "name" = ?`, [input.name]);
    if (!principal) throw notFound("principal", input.name, "name");
    if (principal.kind === "operator") {
      throw conflict(`'${input.name}' is the operator, who already may do everything`, { field: "name", rule: "not_operator" });
    }
    await ensureTeam(tx, input.team);
    const added = await tx.run(`INSERT INTO "TeamGrant" ("teamId","principal","role","grantedBy","createdAt") VALUES (?,?,'lead',?,?) ON CONFLICT DO NOTHING`, [
      input.team,
      input.name,
      actor.name,
      tx.now,
    ]);
    if (!added.changes) throw conflict(`'${input.name}' is already a lead of team '${input.team}'`, { field: "name", rule: "unique" });
    const payload = { team: input.team, principal: input.name, by: actor.name };
    await tx.emit({ teamId: input.team, type: "team.lead_granted", subject: `team:${input.team}`, payload });
    return (await tx.get<LeadView>(`${SELECT} WHERE "teamId" = ? AND "principal" = ? AND "role" = 'lead'`, [input.team, input.name]))!;
  });
}

export async function revokeLead({ db }: DomainDeps, actor: Principal, input: LeadRefInput): Promise<{ revoked: string; team: string }> {
  return db.write("team.lead_revoke", actor.name, async (tx) => {
    await authorize(tx, actor, "leads.revoke", { team: null });
    const r = await tx.run(`DELETE FROM "TeamGrant" WHERE "teamId" = ? AND "principal" = ? AND "role" = 'lead'`, [input.team, input.name]);
    if (!r.changes) throw notFound(`lead of team '${input.team}'`, input.name, "name");
    const payload = { team: input.team, principal: input.name, by: actor.name };
    await tx.emit({ teamId: input.team, type: "team.lead_revoked", subject: `team:${input.team}`, payload });
    return { revoked: input.name, team: input.team };
  });
}

export async function listLeads({ db }: DomainDeps, actor: Principal, input: { team: string }): Promise<LeadView[]> {
  return db.read(async (sql) => {
    await authorize(sql, actor, "leads.list", { team: null });
    return sql.all<LeadView>(`${SELECT} WHERE "teamId" = ? AND "role" = 'lead' ORDER BY "principal"`, [input.team]);
  });
}
