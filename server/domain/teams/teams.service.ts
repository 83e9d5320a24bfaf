/**
 * Teams are namespaces (docs/domain.md#teams). A write to a team that does not exist creates it, in the same
 * transaction; an archived team refuses writes but stays readable.
 */
import { JsonObject } from "../../../lib/api/common.ts";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type TeamRow } from "../../db/rows.ts";
import { DomainError, conflict, notFound } from "../../errors.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorize } from "../auth/capabilities.ts";
import type { TeamView } from "../../../lib/api/teams.ts";

const toView = (t: TeamRow): TeamView => ({ ...t, settings: jsonColumn(JsonObject, t.settings) });

/** The team, created if missing; refuses archived teams. Call at the start of every write. */
/** `known`: the team's row when the caller has read it already (undefined: there is none). */
export async function ensureTeam(tx: WriteTx, teamId: string, known?: { row: Pick<TeamRow, "archivedAt"> | undefined }): Promise<void> {
  const row = known ? known.row : await tx.get<Pick<TeamRow, "archivedAt">>(sql`SELECT "archivedAt" FROM "Team" WHERE "id" = ${teamId}`);
  if (row?.archivedAt) {
    throw new DomainError("team_archived", `team '${teamId}' is archived; it can be read but not changed`, { team: teamId });
  }
  if (row) return;
  await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES (${teamId},${tx.now},'{}')`);
  await tx.emit({ teamId, type: "team.created", subject: `team:${teamId}`, payload: { id: teamId } });
}

export async function createTeam({ db }: DomainDeps, actor: Principal, input: { id: string }): Promise<TeamView> {
  return db.write("team.create", actor.name, async (tx) => {
    const existing = await tx.get(sql`SELECT 1 FROM "Team" WHERE "id" = ${input.id}`);
    if (existing) throw conflict(`team '${input.id}' already exists`, { field: "id" });
    await ensureTeam(tx, input.id);
    return toView((await tx.get<TeamRow>(sql`SELECT * FROM "Team" WHERE "id" = ${input.id}`))!);
  });
}

export async function archiveTeam({ db }: DomainDeps, actor: Principal, input: { team: string }): Promise<TeamView> {
  return db.write("team.archive", actor.name, async (tx) => {
    await authorize(tx, actor, "team.archive", { team: input.team });
    const row = await tx.get<TeamRow>(sql`SELECT * FROM "Team" WHERE "id" = ${input.team}`);
    if (!row) throw notFound("team", input.team, "team");
    if (row.archivedAt) throw new DomainError("team_archived", `team '${input.team}' is already archived`, { team: input.team });
    await tx.run(sql`UPDATE "Team" SET "archivedAt" = ${tx.now} WHERE "id" = ${input.team}`);
    await tx.emit({ teamId: input.team, type: "team.archived", subject: `team:${input.team}`, payload: { id: input.team } });
    return toView({ ...row, archivedAt: tx.now });
  });
}

export async function listTeams({ db }: DomainDeps): Promise<TeamView[]> {
  return db.read(async (s: Sql) => (await s.all<TeamRow>(sql`SELECT * FROM "Team" ORDER BY "id"`)).map(toView));
}
