/**
 * State updates (docs/knowledge.md#state-updates): a member's small structured report after a piece of work, in its own
 * name (the principal, never an argument). Updates are appended; the team state is each member's newest live update
 * with the ones before it, so a reader sees where every role stands and how it got there. A reset or rollback takes
 * updates out of the state (`archivedAt`) without deleting them.
 */
import { jsonColumn, stringsOf, type MemberRow, type StateUpdateRow } from "../../db/rows.ts";
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import { formatRef, pinRef } from "../artifacts/refs.ts";
import type { MemberState, StateUpdateInput, StateUpdateView, TeamState, TeamStateInput } from "../../../lib/api/knowledge.ts";
import { STATE_STATUSES, StateDecision, VERIFICATIONS } from "../../../lib/api/knowledge.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";

const toView = (r: StateUpdateRow): StateUpdateView => ({
  id: r.id,
  team: r.teamId,
  member: r.member,
  role: r.role,
  status: z.enum(STATE_STATUSES).parse(r.status),
  task: r.task,
  ref: r.refArtifact === null || r.refVersion === null ? null : { artifactId: r.refArtifact, version: r.refVersion },
  keyFindings: stringsOf(r.keyFindings),
  decisions: jsonColumn(z.array(StateDecision), r.decisions),
  filesModified: stringsOf(r.filesModified),
  verification: z.enum(VERIFICATIONS).parse(r.verification),
  createdAt: r.createdAt,
});

export async function postStateUpdate({ db }: DomainDeps, actor: Principal, input: StateUpdateInput): Promise<StateUpdateView> {
  return db.write("state.update", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    const ref = input.ref === undefined ? null : await pinRef(tx, input.team, input.ref, "ref");
    const member = await tx.get<Pick<MemberRow, "role">>(sql`SELECT "role" FROM "Member" WHERE "teamId" = ${input.team} AND "name" = ${actor.name}`);
    const row = (await tx.get<StateUpdateRow>(
      sql`INSERT INTO "StateUpdate" ("teamId","member","role","status","task","refArtifact","refVersion","keyFindings","decisions","filesModified","verification","createdAt")
       VALUES (${input.team},${actor.name},${member?.role ?? ""},${input.status},${input.task},${ref?.artifactId ?? null},${ref?.version ?? null},${JSON.stringify(input.keyFindings)},${JSON.stringify(input.decisions)},${JSON.stringify(input.filesModified)},${input.verification},${tx.now}) RETURNING *`,
    ))!;
    const view = toView(row);
    await tx.emit({
      teamId: input.team,
      type: "state.updated",
      subject: `member:${actor.name}`,
      payload: { id: view.id, member: view.member, role: view.role, status: view.status, task: view.task, ref: ref ? formatRef(ref) : null },
    });
    return view;
  });
}

/** Each member's newest live update and up to `history` before it, members by name. */
export async function teamStateOf(s: Sql, team: string, history: number, member?: string): Promise<TeamState> {
  // Ranked once per member (a window both databases have): updates pile up and are never deleted, so a count of the
  // later rows per row would grow with the square of a member's updates on every briefing and graph view.
  const rows = await s.all<StateUpdateRow>(
    sql`SELECT * FROM (
       SELECT s.*, ROW_NUMBER() OVER (PARTITION BY s."member" ORDER BY s."id" DESC) AS "rank" FROM "StateUpdate" s
       WHERE s."teamId" = ${team} AND s."archivedAt" IS NULL ${member === undefined ? EMPTY : sql`AND s."member" = ${member}`}
     ) r WHERE r."rank" <= ${history + 1} ORDER BY r."member", r."id" DESC`,
  );
  const members: MemberState[] = [];
  for (const r of rows) {
    const last = members.at(-1);
    if (last?.member === r.member) last.history.push(toView(r));
    else members.push({ member: r.member, role: r.role, latest: toView(r), history: [] });
  }
  return { team, members };
}

export async function teamState({ db }: DomainDeps, input: TeamStateInput): Promise<TeamState> {
  return db.read((s) => teamStateOf(s, input.team, input.history, input.member));
}
