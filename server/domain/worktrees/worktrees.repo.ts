/** Worktree rows (docs/worktrees.md): one per hub-made branch, for as long as the branch exists. */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { DomainError, notFound } from "../../errors.ts";
import type { WorktreeRef } from "../../../lib/api/worktrees.ts";

export type WorktreeRow = {
  id: number;
  teamId: string;
  session: string;
  sessionPk: number | null;
  repoDir: string;
  path: string | null;
  branch: string;
  baseBranch: string | null;
  baseCommit: string;
  operation: string | null;
  mergedCommit: string | null;
  createdAt: Date;
  updatedAt: Date;
};

export const refOf = (w: WorktreeRow): WorktreeRef => ({ branch: w.branch, baseBranch: w.baseBranch, baseCommit: w.baseCommit, path: w.path });

export async function worktreeOfSession(sql: Sql, sessionPk: number): Promise<WorktreeRow | undefined> {
  return sql.get<WorktreeRow>(`SELECT * FROM "Worktree" WHERE "sessionPk" = ?`, [sessionPk]);
}

/**
 * The work tree of session `name`: the live session's, else the newest branch a deleted session of that name left.
 * `shared`: what to say when the session exists but has none.
 */
export async function requireWorktree(sql: Sql, name: string): Promise<WorktreeRow> {
  const session = await sql.get<{ pk: number }>(`SELECT "pk" FROM "Session" WHERE "name" = ?`, [name]);
  const row = session
    ? await worktreeOfSession(sql, session.pk)
    : await sql.get<WorktreeRow>(`SELECT * FROM "Worktree" WHERE "session" = ? AND "sessionPk" IS NULL ORDER BY "id" DESC LIMIT 1`, [name]);
  if (row) return row;
  if (!session) throw notFound("session", name, "name");
  throw new DomainError("precondition_failed", `name: session '${name}' has no work tree: it works in the shared work dir (isolation: shared)`, {
    field: "name",
    rule: "has_worktree",
    name,
  });
}

export type NewWorktree = Omit<WorktreeRow, "id" | "operation" | "mergedCommit" | "createdAt" | "updatedAt">;

export async function insertWorktree(tx: WriteTx, w: NewWorktree): Promise<WorktreeRow> {
  return (await tx.get<WorktreeRow>(
    `INSERT INTO "Worktree" ("teamId","session","sessionPk","repoDir","path","branch","baseBranch","baseCommit","createdAt","updatedAt")
     VALUES (?,?,?,?,?,?,?,?,?,?) RETURNING *`,
    [w.teamId, w.session, w.sessionPk, w.repoDir, w.path, w.branch, w.baseBranch, w.baseCommit, tx.now, tx.now],
  ))!;
}

export async function worktreeById(sql: Sql, id: number): Promise<WorktreeRow | undefined> {
  return sql.get<WorktreeRow>(`SELECT * FROM "Worktree" WHERE "id" = ?`, [id]);
}
