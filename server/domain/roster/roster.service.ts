/**
 * The team roster (docs/domain.md#chat): who is on the team, their role and status. Supervised sessions keep it
 * current themselves once they exist; people and agents can also join and report status here.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import type { MemberView, UpsertMemberInput } from "../../../lib/api/roster.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";

export async function rosterOf(sql: Sql, team: string): Promise<MemberView[]> {
  return sql.all<MemberView>(`SELECT "name","role","status","currentTask","sessionId","joinedAt","lastSeen" FROM "Member" WHERE "teamId" = ? ORDER BY "name"`, [
    team,
  ]);
}

export async function listRoster({ db }: DomainDeps, input: { team: string }): Promise<MemberView[]> {
  return db.read((sql) => rosterOf(sql, input.team));
}

/** Joins the team, or updates role/status/task. A member may only update itself. */
export async function upsertMember({ db }: DomainDeps, actor: Principal, input: UpsertMemberInput): Promise<MemberView> {
  return db.write("roster.upsert", actor.name, async (tx) => {
    await authorize(tx, actor, "roster.update", { team: input.team, owners: [input.name], label: `'${input.name}'` });
    await ensureTeam(tx, input.team);
    return upsertMemberInTx(tx, input);
  });
}

export async function upsertMemberInTx(tx: WriteTx, input: UpsertMemberInput & { sessionId?: string | null }): Promise<MemberView> {
  const existing = await tx.get<MemberView>(`SELECT * FROM "Member" WHERE "teamId" = ? AND "name" = ?`, [input.team, input.name]);
  if (!existing) {
    await tx.run(`INSERT INTO "Member" ("teamId","name","role","status","currentTask","sessionId","joinedAt","lastSeen") VALUES (?,?,?,?,?,?,?,?)`, [
      input.team,
      input.name,
      input.role ?? "",
      input.status ?? "idle",
      input.currentTask ?? null,
      input.sessionId ?? null,
      tx.now,
      tx.now,
    ]);
    await tx.emit({
      teamId: input.team,
      type: "member.joined",
      subject: `member:${input.name}`,
      payload: { name: input.name, role: input.role ?? "", status: input.status ?? "idle" },
    });
  } else {
    await tx.run(`UPDATE "Member" SET "role" = ?, "status" = ?, "currentTask" = ?, "sessionId" = ?, "lastSeen" = ? WHERE "teamId" = ? AND "name" = ?`, [
      input.role ?? existing.role,
      input.status ?? existing.status,
      input.currentTask === undefined ? existing.currentTask : input.currentTask,
      input.sessionId === undefined ? existing.sessionId : input.sessionId,
      tx.now,
      input.team,
      input.name,
    ]);
    await tx.emit({
      teamId: input.team,
      type: "member.updated",
      subject: `member:${input.name}`,
      payload: { name: input.name, role: input.role, status: input.status, currentTask: input.currentTask },
    });
  }
  return (await tx.get<MemberView>(
    `SELECT "name","role","status","currentTask","sessionId","joinedAt","lastSeen" FROM "Member" WHERE "teamId" = ? AND "name" = ?`,
    [input.team, input.name],
  ))!;
}
