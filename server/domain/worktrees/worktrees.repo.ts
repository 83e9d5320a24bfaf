/** Worktree rows (docs/worktrees.md): one per hub-made branch, for as long as the branch exists. */
import fs from "node:fs";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import type { EventRow, SessionRow, WorktreeRow } from "../../db/rows.ts";
import { DomainError, notFound } from "../../errors.ts";
import type { WorktreeRef } from "../../../lib/api/worktrees.ts";

export const refOf = (w: WorktreeRow): WorktreeRef => ({ branch: w.branch, baseBranch: w.baseBranch, baseCommit: w.baseCommit, path: w.path });

export async function worktreeOfSession(s: Sql, sessionPk: number): Promise<WorktreeRow | undefined> {
  return s.get<WorktreeRow>(sql`SELECT * FROM "Worktree" WHERE "sessionPk" = ${sessionPk}`);
}

/**
 * The work tree of session `name`: the live session's, else the newest branch a deleted session of that name left.
 * `branch`: that one of the session's hub-made branches instead — its current one, or one it left (a replay's first
 * run, docs/worktrees.md#code-in-snapshots; a deleted session's of that name); any other is not_found naming `branch`.
 */
export async function requireWorktree(s: Sql, name: string, branch?: string): Promise<WorktreeRow> {
  const session = await s.get<Pick<SessionRow, "pk" | "teamId">>(sql`SELECT "pk","teamId" FROM "Session" WHERE "name" = ${name}`);
  if (branch !== undefined) {
    const row = await s.get<WorktreeRow>(
      sql`SELECT * FROM "Worktree" WHERE "session" = ${name} AND "branch" = ${branch} AND ("sessionPk" IS NULL OR "sessionPk" = ${session?.pk ?? -1})${session ? sql` AND "teamId" = ${session.teamId}` : EMPTY}
       ORDER BY "id" DESC LIMIT 1`,
    );
    if (!row) throw notFound(`work-tree branch of session '${name}'`, branch, "branch");
    return row;
  }
  const row = session
    ? await worktreeOfSession(s, session.pk)
    : await s.get<WorktreeRow>(sql`SELECT * FROM "Worktree" WHERE "session" = ${name} AND "sessionPk" IS NULL ORDER BY "id" DESC LIMIT 1`);
  if (row) return row;
  if (!session) throw notFound("session", name, "name");
  throw new DomainError("precondition_failed", `name: session '${name}' has no work tree: it works in the shared work dir (isolation: shared)`, {
    field: "name",
    rule: "has_worktree",
    name,
  });
}

export type NewWorktree = Pick<
  WorktreeRow,
  "teamId" | "session" | "sessionPk" | "repoDir" | "path" | "branch" | "baseBranch" | "baseCommit" | "runnable" | "included" | "setupStatus"
>;

export async function insertWorktree(tx: WriteTx, w: NewWorktree): Promise<WorktreeRow> {
  return (await tx.get<WorktreeRow>(
    sql`INSERT INTO "Worktree" ("teamId","session","sessionPk","repoDir","path","branch","baseBranch","baseCommit","runnable","included","setupStatus","createdAt","updatedAt")
     VALUES (${w.teamId},${w.session},${w.sessionPk},${w.repoDir},${w.path},${w.branch},${w.baseBranch},${w.baseCommit},${w.runnable},${w.included},${w.setupStatus},${tx.now},${tx.now}) RETURNING *`,
  ))!;
}

export async function worktreeById(s: Sql, id: number): Promise<WorktreeRow | undefined> {
  return s.get<WorktreeRow>(sql`SELECT * FROM "Worktree" WHERE "id" = ${id}`);
}

/**
 * Whether the session's work tree was discarded (docs/worktrees.md#discard): it has none now, one of its name was
 * discarded since it was made, and its work dir is gone. A resume would launch the CLI in a directory that no longer
 * exists. (The work dir check keeps a shared session of a name whose earlier holder's branch was discarded resumable.)
 */
export async function workTreeDiscarded(s: Sql, session: Pick<SessionRow, "pk" | "name" | "teamId" | "workDir" | "createdAt">): Promise<boolean> {
  if (fs.existsSync(session.workDir) || (await worktreeOfSession(s, session.pk))) return false;
  const discarded = await s.get<Pick<EventRow, "id">>(
    sql`SELECT "id" FROM "Event" WHERE "type" = 'worktree.discarded' AND "teamId" = ${session.teamId} AND "subject" = ${`session:${session.name}`} AND "at" >= ${session.createdAt} LIMIT 1`,
  );
  return discarded !== undefined;
}

/** A work tree row goes for good (its branch is gone): its port leases and its commands' output with it. */
export async function deleteWorktreeRow(tx: WriteTx, id: number): Promise<void> {
  for (const table of [sql`"PortLease"`, sql`"ProcessOutput"`]) await tx.run(sql`DELETE FROM ${table} WHERE "worktreeId" = ${id}`);
  await tx.run(sql`DELETE FROM "Worktree" WHERE "id" = ${id}`);
}
