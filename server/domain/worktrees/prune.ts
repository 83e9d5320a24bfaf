/**
 * Pruning the work trees of deleted sessions (docs/worktrees.md#delete): the branch keeps the work —
 * anything left uncommitted is committed on it by the hub first — and the work tree dir goes. A
 * branch with no work beyond its base (never changed, or all of it merged) goes too, with its row.
 *
 * The supervisor runs this once a deleted session's process has ended (it may write files until
 * then), and at start for deletions a stopped hub did not finish. Git runs first; one transaction
 * per work tree records the outcome, so a crash in between only repeats the prune.
 */
import fs from "node:fs";
import { sql } from "../../db/sql.ts";
import type { WorktreeRow } from "../../db/rows.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { checkpoint } from "./checkpoint.ts";
import { git, resolveRef } from "./git.ts";
import { removeWorktree } from "./isolate.ts";
import { deleteWorktreeRow } from "./worktrees.repo.ts";

async function pruneOne(deps: DomainDeps, w: WorktreeRow): Promise<void> {
  let savedAs: string | null = null;
  if (w.path && fs.existsSync(w.path)) {
    const cp = await checkpoint(w.path, `teamhub: work left in the work tree of ${w.session} when it was deleted`);
    if (cp.uncommitted) {
      await git(w.repoDir, ["update-ref", `refs/heads/${w.branch}`, cp.commit, cp.head]);
      savedAs = cp.commit;
    }
  }
  if (w.path) await deps.commands?.beforeRemove(w);
  await removeWorktree(w.repoDir, w.path, null);
  const tip = await resolveRef(w.repoDir, `refs/heads/${w.branch}`);
  const branchDeleted = tip === null || tip === w.baseCommit;
  if (tip !== null && branchDeleted) await git(w.repoDir, ["branch", "-D", w.branch], { ok: [1] });
  await deps.db.write("worktree.prune", SUPERVISOR.name, async (tx) => {
    if (branchDeleted) await deleteWorktreeRow(tx, w.id);
    else {
      await tx.run(sql`UPDATE "Worktree" SET "path" = NULL, "runStatus" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`);
      await tx.run(sql`DELETE FROM "PortLease" WHERE "worktreeId" = ${w.id}`);
    }
    await tx.emit({
      teamId: w.teamId,
      type: "worktree.pruned",
      subject: `session:${w.session}`,
      payload: { name: w.session, branch: w.branch, path: w.path ?? "", savedAs, branchDeleted },
    });
  });
}

/** Every work tree whose session is gone; one that fails (its repository moved away) is logged and left for the next sweep. */
export async function pruneDeletedWorktrees(deps: DomainDeps): Promise<number> {
  const rows = await deps.db.read((s) => s.all<WorktreeRow>(sql`SELECT * FROM "Worktree" WHERE "sessionPk" IS NULL AND "path" IS NOT NULL ORDER BY "id"`));
  let pruned = 0;
  for (const w of rows) {
    try {
      await pruneOne(deps, w);
      pruned++;
    } catch (e) {
      console.error(`[teamhub] pruning the work tree of deleted session ${w.session}:`, e);
    }
  }
  return pruned;
}
