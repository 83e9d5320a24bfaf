/**
 * Code in snapshots (docs/worktrees.md#code-in-snapshots). A snapshot records each live work tree's commit; a
 * rollback puts every recorded work tree's files back to it; a replay gives the assignees of re-run contracts a fresh
 * branch from it, so the earlier run's branch and the replay's both exist.
 *
 * Git is slow next to a transaction and cannot run inside one, so as everywhere in work trees: git first, then the
 * transaction records the outcome; when the transaction fails, `undo` puts the work trees back.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { WorktreeRow } from "../../db/rows.ts";
import type { CodeMove, CodeState } from "../../../lib/api/worktrees.ts";
import { pinWorkTrees } from "../worktrees/code-state.ts";
import { workState } from "../worktrees/checkpoint.ts";
import { resolveRef, treeOf } from "../worktrees/git.ts";
import { branchFrom, restoreFiles, switchBranch, unbranch } from "../worktrees/restore-files.ts";
import { insertWorktree } from "../worktrees/worktrees.repo.ts";

/** The team's work trees that have a directory and a session. */
export async function teamWorkTrees(s: Sql, team: string): Promise<WorktreeRow[]> {
  return s.all<WorktreeRow>(sql`SELECT * FROM "Worktree" WHERE "teamId" = ${team} AND "path" IS NOT NULL AND "sessionPk" IS NOT NULL ORDER BY "session"`);
}

export const captureCode = (rows: WorktreeRow[], why: string): Promise<CodeState[]> => pinWorkTrees(rows, why);

/**
 * `branchTo`: a replay's fresh branch; `switchTo`: the branch the snapshot recorded, which the session left and which
 * still holds exactly the recorded files (the undo of a replay, or its redo): the session goes back to it.
 */
type Step = { recorded: CodeState; row: WorktreeRow | null; branchTo: string | null; switchTo: WorktreeRow | null };
export type CodePlan = { steps: Step[] };

/** `teamhub/t/a` → `teamhub/t/a-replay-N`, the first N that no branch has (a replay of a replay counts on). */
async function replayBranch(w: WorktreeRow, taken: Set<string>): Promise<string> {
  const stem = w.branch.replace(/-replay-\d+$/, "");
  for (let n = 1; ; n++) {
    const name = `${stem}-replay-${n}`;
    if (!taken.has(name) && !(await resolveRef(w.repoDir, `refs/heads/${name}`))) return name;
  }
}

/**
 * What to do with each work tree `recorded` names, matched by session (a replay may have moved the session to another
 * branch since). `branching`: sessions that get a fresh branch (replay's re-run assignees); the others are restored.
 */
export async function planCode(s: Sql, team: string, recorded: CodeState[] | undefined, branching: Set<string>): Promise<CodePlan> {
  const rows = new Map((await teamWorkTrees(s, team)).map((w) => [w.session, w]));
  const taken = new Set((await s.all<Pick<WorktreeRow, "branch">>(sql`SELECT "branch" FROM "Worktree" WHERE "teamId" = ${team}`)).map((r) => r.branch));
  const steps: Step[] = [];
  for (const r of recorded ?? []) {
    const row = rows.get(r.session) ?? null;
    const branchTo = row && branching.has(r.session) ? await replayBranch(row, taken) : null;
    if (branchTo) taken.add(branchTo);
    const switchTo = row && !branchTo && row.branch !== r.branch ? await leftBranch(s, row, r) : null;
    steps.push({ recorded: r, row, branchTo, switchTo });
  }
  return { steps };
}

/**
 * The branch `recorded` names, if the session left it (a row with neither session nor directory, in the same
 * repository) and its tip holds exactly the recorded files: then the snapshot was taken just before the session left
 * it, and going back is a clean checkout. Otherwise (merged since, discarded, or work added to it outside the hub)
 * the files are restored on the branch the session is on.
 */
async function leftBranch(s: Sql, row: WorktreeRow, recorded: CodeState): Promise<WorktreeRow | null> {
  const left = await s.get<WorktreeRow>(
    sql`SELECT * FROM "Worktree" WHERE "teamId" = ${row.teamId} AND "session" = ${row.session} AND "repoDir" = ${row.repoDir} AND "branch" = ${recorded.branch} AND "sessionPk" IS NULL AND "path" IS NULL`,
  );
  if (!left) return null;
  const [tip, want] = await Promise.all([treeOf(row.repoDir, `refs/heads/${left.branch}`), treeOf(row.repoDir, recorded.commit)]);
  return tip !== null && tip === want ? left : null;
}

/** The plan as the summary reports it, before anything ran. */
export const plannedMoves = (plan: CodePlan): CodeMove[] =>
  plan.steps.map(({ recorded, row, branchTo, switchTo }) => ({
    session: recorded.session,
    action: !row ? "missing" : branchTo ? "branched" : switchTo ? "switched" : "restored",
    commit: recorded.commit,
    branch: branchTo ?? switchTo?.branch ?? row?.branch ?? recorded.branch,
    previousBranch: branchTo || switchTo ? row!.branch : null,
  }));

/**
 * A preview's report: the plan, with each work tree whose files are the snapshot's already said `unchanged`, as the
 * real run would find. Reading a work tree's state writes tree objects only (a throwaway index, `write-tree`): no
 * ref, index or file of the session moves.
 */
export async function previewMoves(plan: CodePlan): Promise<CodeMove[]> {
  const moves = plannedMoves(plan);
  for (const [i, { recorded, row }] of plan.steps.entries()) {
    if (moves[i].action !== "restored" || !row?.path) continue;
    const [now, target] = await Promise.all([workState(row.path), treeOf(row.repoDir, recorded.commit)]);
    if (now.tree === target) moves[i].action = "unchanged";
  }
  return moves;
}

export type AppliedCode = { moves: CodeMove[]; undo: () => Promise<void> };

/**
 * Runs the plan on disk. `saved` is the state just before (pinned for the automatic snapshot): undo restores it. A
 * failure midway undoes what was done and rethrows, so the work trees are never left half rolled back.
 */
export async function applyCode(plan: CodePlan, saved: CodeState[], why: string): Promise<AppliedCode> {
  const moves = plannedMoves(plan);
  const done: Array<() => Promise<void>> = [];
  const savedOf = new Map(saved.map((s) => [s.session, s.commit]));
  const undo = async () => {
    for (const step of done.reverse()) await step().catch((e: unknown) => console.error("[teamhub] undoing a work tree's rollback:", e));
  };
  try {
    for (const [i, { recorded, row, branchTo, switchTo }] of plan.steps.entries()) {
      if (!row?.path) continue;
      const path = row.path;
      const before = savedOf.get(row.session);
      if (switchTo) {
        const back = await switchBranch(path, row.branch, switchTo.branch, `teamhub: ${row.session}'s work before ${why}`);
        done.push(async () => {
          await back();
          if (before) await restoreFiles(path, before);
        });
        await restoreFiles(path, recorded.commit);
      } else if (branchTo) {
        await branchFrom(path, row.branch, branchTo, recorded.commit, `teamhub: ${row.session}'s work before ${why}`);
        done.push(async () => {
          await unbranch(path, row.branch, branchTo);
          if (before) await restoreFiles(path, before);
        });
      } else {
        if (!(await restoreFiles(path, recorded.commit))) moves[i].action = "unchanged";
        if (before) done.push(async () => void (await restoreFiles(path, before)));
      }
    }
  } catch (e) {
    await undo();
    throw e;
  }
  return { moves, undo };
}

/**
 * Records the branches moved: a replay's new ones (the old row keeps the earlier run's branch, with no session and no
 * directory), and the switches back (the left branch's row gets the session and directory again, the one it leaves
 * keeps its work the same way).
 */
export async function recordBranches(tx: WriteTx, plan: CodePlan): Promise<void> {
  for (const { row, switchTo } of plan.steps) {
    if (!row || !switchTo) continue;
    await tx.run(sql`UPDATE "Worktree" SET "sessionPk" = NULL, "path" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${row.id}`);
    await tx.run(sql`UPDATE "Worktree" SET "sessionPk" = ${row.sessionPk}, "path" = ${row.path}, "updatedAt" = ${tx.now} WHERE "id" = ${switchTo.id}`);
    // The ports go with the work tree dir the session keeps (docs/worktrees.md#ports).
    await tx.run(sql`UPDATE "PortLease" SET "worktreeId" = ${switchTo.id} WHERE "worktreeId" = ${row.id}`);
    await tx.emit({
      teamId: row.teamId,
      type: "worktree.switched",
      subject: `session:${row.session}`,
      payload: { name: row.session, path: row.path ?? "", branch: switchTo.branch, previousBranch: row.branch },
    });
  }
  for (const { row, branchTo } of plan.steps) {
    if (!row || !branchTo) continue;
    await tx.run(sql`UPDATE "Worktree" SET "sessionPk" = NULL, "path" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${row.id}`);
    const made = await insertWorktree(tx, { ...row, branch: branchTo });
    await tx.run(sql`UPDATE "PortLease" SET "worktreeId" = ${made.id} WHERE "worktreeId" = ${row.id}`);
    await tx.emit({
      teamId: row.teamId,
      type: "worktree.created",
      subject: `session:${row.session}`,
      payload: {
        name: row.session,
        repoDir: made.repoDir,
        path: made.path ?? "",
        branch: made.branch,
        baseBranch: made.baseBranch,
        baseCommit: made.baseCommit,
      },
    });
  }
}
