/**
 * The team roster (docs/domain.md#chat): who is on the team, their role and status. Supervised sessions keep it
 * current themselves once they exist; people and agents can also join and report status here.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow, MemberRow, SessionRow, StateUpdateRow } from "../../db/rows.ts";
import { MemberStatus, type MemberView, type UpsertMemberInput } from "../../../lib/api/roster.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import { ensureTeam } from "../teams/teams.service.ts";

type MemberFacts = Pick<MemberRow, "name" | "role" | "status" | "currentTask" | "sessionId" | "joinedAt" | "lastSeen">;

const toView = (m: MemberFacts): MemberView => ({ ...m, status: MemberStatus.parse(m.status) });

export async function rosterOf(s: Sql, team: string): Promise<MemberView[]> {
  const rows = await s.all<MemberFacts>(
    sql`SELECT "name","role","status","currentTask","sessionId","joinedAt","lastSeen" FROM "Member" WHERE "teamId" = ${team} ORDER BY "name"`,
  );
  return rows.map(toView);
}

/** A supervised member's status is its session's (docs/domain.md#the-roster-as-read): what it is doing now, in the roster's words. */
const FROM_SESSION: Record<string, MemberView["status"]> = {
  starting: "busy",
  busy: "busy",
  waiting_permission: "waiting",
  queued: "waiting",
  paused: "waiting",
  idle: "idle",
  stopped: "offline",
  interrupted: "offline",
  failed: "offline",
  killed: "offline",
};

/** Each of the joined columns is null where the member has no such session, state update or contract. */
type MemberAsRead = MemberFacts & {
  sessionStatus: SessionRow["status"] | null;
  stateTask: StateUpdateRow["task"] | null;
  contractId: ContractRow["id"] | null;
  contractTitle: ContractRow["title"] | null;
};

/**
 * The roster as every door reads it (docs/domain.md#the-roster-as-read): a member with a supervised session has that
 * session's state as its status, whatever it last reported, so the roster never says "idle" while its session waits
 * for a permission; its current task is the one it reported, else the task of its newest live state update still in
 * progress or blocked, else the contract it is working on.
 */
export async function rosterView(s: Sql, team: string): Promise<MemberView[]> {
  const rows = await s.all<MemberAsRead>(
    sql`SELECT m."name", m."role", m."status", m."currentTask", m."sessionId", m."joinedAt", m."lastSeen", s."status" AS "sessionStatus",
       (SELECT u."task" FROM "StateUpdate" u WHERE u."teamId" = m."teamId" AND u."member" = m."name" AND u."archivedAt" IS NULL
          AND u."status" IN ('in_progress', 'blocked') AND u."id" = (SELECT MAX(v."id") FROM "StateUpdate" v WHERE v."teamId" = m."teamId" AND v."member" = m."name" AND v."archivedAt" IS NULL)) AS "stateTask",
       c."id" AS "contractId", c."title" AS "contractTitle"
     FROM "Member" m
     LEFT JOIN "Session" s ON s."name" = m."sessionId"
     LEFT JOIN "Contract" c ON c."id" = (SELECT c2."id" FROM "Contract" c2 WHERE c2."teamId" = m."teamId" AND c2."assignee" = m."name" AND c2."status" = 'in_progress' ORDER BY c2."updatedAt" DESC, c2."id" LIMIT 1)
       AND c."teamId" = m."teamId"
     WHERE m."teamId" = ${team} ORDER BY m."name"`,
  );
  return rows.map(({ sessionStatus, stateTask, contractId, contractTitle, ...m }) => ({
    ...m,
    status: (sessionStatus && FROM_SESSION[sessionStatus]) || MemberStatus.parse(m.status),
    currentTask: m.currentTask ?? stateTask ?? (contractId ? `${contractId}: ${contractTitle}` : null),
  }));
}

export async function listRoster({ db }: DomainDeps, input: { team: string }): Promise<MemberView[]> {
  return db.read((s) => rosterView(s, input.team));
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
  const existing = await tx.get<MemberRow>(sql`SELECT * FROM "Member" WHERE "teamId" = ${input.team} AND "name" = ${input.name}`);
  if (!existing) {
    await tx.run(
      sql`INSERT INTO "Member" ("teamId","name","role","status","currentTask","sessionId","joinedAt","lastSeen") VALUES (${input.team},${input.name},${input.role ?? ""},${input.status ?? "idle"},${input.currentTask ?? null},${input.sessionId ?? null},${tx.now},${tx.now})`,
    );
    await tx.emit({
      teamId: input.team,
      type: "member.joined",
      subject: `member:${input.name}`,
      payload: { name: input.name, role: input.role ?? "", status: input.status ?? "idle" },
    });
  } else {
    const currentTask = input.currentTask === undefined ? existing.currentTask : input.currentTask;
    const sessionId = input.sessionId === undefined ? existing.sessionId : input.sessionId;
    await tx.run(
      sql`UPDATE "Member" SET "role" = ${input.role ?? existing.role}, "status" = ${input.status ?? existing.status}, "currentTask" = ${currentTask}, "sessionId" = ${sessionId}, "lastSeen" = ${tx.now} WHERE "teamId" = ${input.team} AND "name" = ${input.name}`,
    );
    await tx.emit({
      teamId: input.team,
      type: "member.updated",
      subject: `member:${input.name}`,
      payload: { name: input.name, role: input.role, status: input.status, currentTask: input.currentTask },
    });
  }
  const row = await tx.get<MemberFacts>(
    sql`SELECT "name","role","status","currentTask","sessionId","joinedAt","lastSeen" FROM "Member" WHERE "teamId" = ${input.team} AND "name" = ${input.name}`,
  );
  return toView(row!);
}
