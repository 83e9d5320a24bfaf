/**
 * Merging a session's work into its base branch, and discarding it (docs/worktrees.md#merge).
 *
 * Git decides these, so each runs git first and records the outcome in one transaction after it.
 * Two merges (or a merge and a discard) of one session are kept apart by a claim on the row
 * (`operation`), taken in a transaction before git runs; the base branch itself only ever moves by
 * compare-and-swap (`update-ref new old`, or a fast-forward in the work tree that has it checked out),
 * so a base that moved meanwhile makes the merge fail rather than lose a commit.
 *
 * The order inside a merge: every check that can refuse (branch exists, base clean, no conflict)
 * runs before anything is written; then the merge commit is made (an object on no branch), the base
 * branch moves to it, the session's branch moves to its checkpointed work, and the row records both.
 * A crash after the base moved and before the record leaves the row at its old base commit: the
 * changes view then still lists the merged files, and the next merge of the same work is clean.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow, SessionRow, WorktreeRow } from "../../db/rows.ts";
import { DomainError, conflict } from "../../errors.ts";
import type { DiscardInput, DiscardResult, MergeInput, MergeResult } from "../../../lib/api/worktrees.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { isLive } from "../sessions/states.ts";
import { checkpoint } from "./checkpoint.ts";
import { authorizeWorktree, branchGone } from "./changes.service.ts";
import { git, gitError, gitText, resolveRef } from "./git.ts";
import { removeWorktree } from "./isolate.ts";
import { deleteWorktreeRow, requireWorktree, worktreeById } from "./worktrees.repo.ts";

/** A claim older than this belongs to a merge that died with its process; it may be taken over. */
const STALE_CLAIM_MS = 10 * 60 * 1000;

async function claim(
  deps: DomainDeps,
  actor: Principal,
  which: { name: string; branch?: string },
  operation: "merging" | "discarding",
  dryRun: boolean,
): Promise<WorktreeRow> {
  return deps.db.write(`worktree.${operation}`, actor.name, async (tx) => {
    const w = await requireWorktree(tx, which.name, which.branch);
    await authorizeWorktree(tx, actor, operation === "merging" ? "worktree.merge" : "worktree.discard", w);
    const fresh = w.operation !== null && tx.now.getTime() - new Date(w.updatedAt).getTime() < STALE_CLAIM_MS;
    if (fresh)
      throw conflict(`a ${w.operation === "merging" ? "merge" : "discard"} of session '${w.session}' is already under way; try again when it has finished`, {
        field: "name",
        rule: "one_at_a_time",
        operation: w.operation,
      });
    // A dry run checks that nobody else is merging, and claims nothing.
    if (!dryRun) await tx.run(sql`UPDATE "Worktree" SET "operation" = ${operation}, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`);
    return w;
  });
}

async function release(deps: DomainDeps, id: number): Promise<void> {
  await deps.db.write("worktree.release", "system", async (tx) => {
    await tx.run(sql`UPDATE "Worktree" SET "operation" = NULL WHERE "id" = ${id}`);
  });
}

/** The work tree that has `branch` checked out, if any (the repository's own, or another linked one). */
async function checkedOutAt(repoDir: string, branch: string): Promise<string | null> {
  const list = await gitText(repoDir, ["worktree", "list", "--porcelain", "-z"]);
  let at: string | null = null;
  for (const field of list.split("\0")) {
    if (field.startsWith("worktree ")) at = field.slice("worktree ".length);
    else if (field === `branch refs/heads/${branch}`) return at;
  }
  return null;
}

/** Tracked files with uncommitted changes where the base branch is checked out: a merge would have to write over them. */
async function dirtyFiles(dir: string): Promise<string[]> {
  const r = await git(dir, ["status", "--porcelain", "--untracked-files=no", "-z"]);
  return r.stdout
    .split("\0")
    .filter((e) => e.length > 3)
    .map((e) => e.slice(3));
}

/** The message a merge gets unless one is given: the session's contract, its summary, where it comes from. */
async function prefilledMessage(deps: DomainDeps, w: WorktreeRow, mode: "merge" | "squash"): Promise<string> {
  const { contract, summary } = await deps.db.read(async (s) => ({
    contract: await s.get<Pick<ContractRow, "id" | "title">>(
      sql`SELECT "id","title" FROM "Contract" WHERE "teamId" = ${w.teamId} AND "assignee" = ${w.session}
       ORDER BY CASE "status" WHEN 'in_progress' THEN 0 WHEN 'completed' THEN 1 ELSE 2 END, "updatedAt" DESC LIMIT 1`,
    ),
    summary:
      w.sessionPk === null
        ? undefined
        : (await s.get<Pick<SessionRow, "lastOutput">>(sql`SELECT "lastOutput" FROM "Session" WHERE "pk" = ${w.sessionPk}`))?.lastOutput,
  }));
  const subject = contract ? `${contract.title} (contract ${contract.id})` : `Work of session ${w.session}`;
  const body = summary?.trim().slice(0, 2000);
  const origin = `${mode === "squash" ? "Squashed" : "Merged"} from ${w.branch} (session ${w.session}, team ${w.teamId}) by Team Hub.`;
  return [subject, body, origin].filter(Boolean).join("\n\n");
}

type Checked = { baseTip: string; tip: string; tree: string | null; conflicts: string[]; files: number; baseAt: string | null; uncommitted: boolean };

/** Everything that can refuse a merge, before anything is written. */
async function check(w: WorktreeRow): Promise<Checked> {
  if (!w.baseBranch) {
    throw new DomainError("precondition_failed", `name: session '${w.session}' was started from a detached HEAD, so there is no base branch to merge into`, {
      field: "name",
      rule: "has_base_branch",
    });
  }
  const branchTip = await resolveRef(w.repoDir, `refs/heads/${w.branch}`);
  if (!branchTip) throw branchGone(w);
  const baseTip = await resolveRef(w.repoDir, `refs/heads/${w.baseBranch}`);
  if (!baseTip)
    throw new DomainError("precondition_failed", `base branch '${w.baseBranch}' no longer exists in '${w.repoDir}'`, {
      field: "baseBranch",
      rule: "branch_exists",
    });
  const baseAt = await checkedOutAt(w.repoDir, w.baseBranch);
  if (baseAt) {
    const dirty = await dirtyFiles(baseAt);
    if (dirty.length) {
      throw new DomainError(
        "precondition_failed",
        `base branch '${w.baseBranch}' has uncommitted changes in '${baseAt}' (${dirty.slice(0, 10).join(", ")}${dirty.length > 10 ? ", …" : ""}); commit or stash them first`,
        { field: "baseBranch", rule: "clean_base", files: dirty },
      );
    }
  }
  const cp = w.path ? await checkpoint(w.path, `teamhub: work of ${w.session}`) : { commit: branchTip, uncommitted: false };
  const files = (await git(w.repoDir, ["diff", "--no-renames", "--name-only", "-z", w.baseCommit, cp.commit])).stdout.split("\0").filter(Boolean).length;
  const mt = await git(w.repoDir, ["merge-tree", "--write-tree", "--name-only", "-z", "--no-messages", baseTip, cp.commit], { ok: [1] });
  const [tree, ...rest] = mt.stdout.split("\0");
  const conflicts = mt.code === 1 ? [...new Set(rest.filter(Boolean))] : [];
  return { baseTip, tip: cp.commit, tree: mt.code === 0 ? tree : null, conflicts, files, baseAt, uncommitted: cp.uncommitted };
}

export async function mergeSession(deps: DomainDeps, actor: Principal, input: MergeInput): Promise<MergeResult> {
  const w = await claim(deps, actor, input, "merging", input.dryRun);
  try {
    const c = await check(w).catch((e) => {
      throw gitError(e, "checking the merge");
    });
    const message = input.message ?? (await prefilledMessage(deps, w, input.mode));
    const base = { name: w.session, branch: w.branch, mode: input.mode, baseBranch: w.baseBranch!, message, files: c.files, branchDeleted: false };
    if (c.conflicts.length) {
      const files = c.conflicts.map((path) => ({ path }));
      if (input.dryRun) return { ...base, outcome: "conflicts", commit: null, conflicts: files, at: new Date() };
      throw new DomainError(
        "conflict",
        `merging '${w.branch}' into '${w.baseBranch}' would conflict in ${files.length} file${files.length === 1 ? "" : "s"}: ${c.conflicts.join(", ")}; nothing was written`,
        { field: "name", rule: "no_conflicts", conflicts: files },
      );
    }
    if (c.files === 0 || (await git(w.repoDir, ["merge-base", "--is-ancestor", c.tip, c.baseTip], { ok: [1] })).code === 0) {
      throw new DomainError("precondition_failed", `name: session '${w.session}' has no changes that '${w.baseBranch}' does not have already`, {
        field: "name",
        rule: "has_changes",
      });
    }
    if (input.dryRun) return { ...base, outcome: "clean", commit: null, conflicts: [], at: new Date() };
    const parents = input.mode === "merge" ? ["-p", c.baseTip, "-p", c.tip] : ["-p", c.baseTip];
    const commit = await gitText(w.repoDir, ["commit-tree", c.tree!, ...parents, "-m", message]);
    try {
      // Compare-and-swap: a base that moved since the check refuses, it is never overwritten.
      if (c.baseAt) await git(c.baseAt, ["merge", "--ff-only", "-q", commit]);
      else await git(w.repoDir, ["update-ref", `refs/heads/${w.baseBranch}`, commit, c.baseTip]);
    } catch (e) {
      throw gitError(e, `moving '${w.baseBranch}' to the merge`);
    }
    // The session's branch takes its own work as a commit; its files stay as they are.
    if (w.path && c.uncommitted) await git(w.path, ["reset", "-q", "--mixed", c.tip]);
    const branchDeleted = !w.path && w.sessionPk === null;
    if (branchDeleted) await git(w.repoDir, ["branch", "-D", w.branch], { ok: [1] });
    const at = await deps.db.write("worktree.merge", actor.name, async (tx) => {
      await recordMerge(tx, w, { commit, merged: c.tip, mode: input.mode, files: c.files, branchDeleted });
      return tx.now;
    });
    return { ...base, outcome: "merged", commit, conflicts: [], branchDeleted, at };
  } finally {
    if (!input.dryRun) await release(deps, w.id).catch(() => undefined);
  }
}

async function recordMerge(
  tx: WriteTx,
  w: WorktreeRow,
  m: { commit: string; merged: string; mode: "merge" | "squash"; files: number; branchDeleted: boolean },
) {
  // From now on the session's changes are measured from the work that was merged.
  if (m.branchDeleted) await deleteWorktreeRow(tx, w.id);
  else
    await tx.run(
      sql`UPDATE "Worktree" SET "baseCommit" = ${m.merged}, "mergedCommit" = ${m.commit}, "operation" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`,
    );
  await tx.emit({
    teamId: w.teamId,
    type: "worktree.merged",
    subject: `session:${w.session}`,
    payload: {
      name: w.session,
      branch: w.branch,
      baseBranch: w.baseBranch!,
      mode: m.mode,
      commit: m.commit,
      merged: m.merged,
      files: m.files,
      branchDeleted: m.branchDeleted,
    },
  });
}

/** Discard: the branch and work tree go for good. A live session must be stopped first: its process works in that tree. */
export async function discardSession(deps: DomainDeps, actor: Principal, input: DiscardInput): Promise<DiscardResult> {
  const w = await claim(deps, actor, input, "discarding", false);
  try {
    const live = await deps.db.read(async (s) =>
      w.sessionPk === null ? null : await s.get<Pick<SessionRow, "status">>(sql`SELECT "status" FROM "Session" WHERE "pk" = ${w.sessionPk}`),
    );
    if (live && isLive(live.status as never)) {
      throw new DomainError("illegal_transition", `session '${w.session}' is ${live.status}; stop it before discarding its work tree`, {
        field: "name",
        current: live.status,
        operation: "discard",
      });
    }
    const branchExisted = (await resolveRef(w.repoDir, `refs/heads/${w.branch}`)) !== null;
    // The repository's archive command runs first; its failure is reported and does not keep the tree (docs/worktrees.md#archive).
    if (w.path) await deps.commands?.beforeRemove(w);
    await removeWorktree(w.repoDir, w.path, w.branch).catch((e) => {
      throw gitError(e, "discarding");
    });
    const result = { name: w.session, branch: w.branch, worktreeRemoved: w.path !== null, branchDeleted: branchExisted };
    await deps.db.write("worktree.discard", actor.name, async (tx) => {
      if (!(await worktreeById(tx, w.id))) return;
      await deleteWorktreeRow(tx, w.id);
      await tx.emit({ teamId: w.teamId, type: "worktree.discarded", subject: `session:${w.session}`, payload: { ...result, by: actor.name } });
    });
    return result;
  } finally {
    await release(deps, w.id).catch(() => undefined);
  }
}
