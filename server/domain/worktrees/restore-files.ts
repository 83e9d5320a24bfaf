/**
 * Putting a work tree's files back to a recorded commit (rollback, docs/worktrees.md#code-in-snapshots), and starting
 * a replay's branch from one. Only files git would see change: those that differ between the work tree's state now
 * and the commit are written or deleted; ignored files (build output, node_modules) are left alone.
 */
import fs from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import os from "node:os";
import { checkpoint, workState } from "./checkpoint.ts";
import { git, gitText } from "./git.ts";

const nulList = (s: string) => s.split("\0").filter(Boolean);

/** Removes now-empty directories from `file`'s parent up to (not including) `top`. */
function pruneEmptyDirs(top: string, file: string): void {
  for (let dir = path.dirname(file); dir.startsWith(top + path.sep); dir = path.dirname(dir)) {
    try {
      fs.rmdirSync(dir);
    } catch {
      return; // not empty
    }
  }
}

/**
 * Makes the files of `workTree` exactly the tree of `commit`; branch, HEAD and index stay. Returns false when they
 * were that already. The index is not touched so that the session's `git status` keeps telling the truth against
 * HEAD (it rechecks files whose stat changed).
 */
export async function restoreFiles(workTree: string, commit: string): Promise<boolean> {
  const now = (await workState(workTree)).tree;
  const target = await gitText(workTree, ["rev-parse", `${commit}^{tree}`]);
  if (now === target) return false;
  const diff = ["diff", "--no-renames", "--name-only", "-z", now, target];
  const gone = nulList((await git(workTree, [...diff, "--diff-filter=D"])).stdout);
  const written = nulList((await git(workTree, [...diff, "--diff-filter=AMT"])).stdout);
  for (const f of gone) {
    const file = path.join(workTree, f);
    fs.rmSync(file, { force: true });
    pruneEmptyDirs(workTree, file);
  }
  if (written.length > 0) {
    // A throwaway index holding the target tree: checkout-index writes the files (modes and symlinks too) from it.
    const index = path.join(os.tmpdir(), `teamhub-restore-${randomUUID()}`);
    try {
      const env = { GIT_INDEX_FILE: index };
      await git(workTree, ["read-tree", target], { env });
      // A file in the way of a directory (or the reverse) goes first; checkout-index -f replaces files only.
      for (const f of written) {
        const parts = f.split("/");
        for (let i = 1; i < parts.length; i++) {
          const p = path.join(workTree, ...parts.slice(0, i));
          if (fs.existsSync(p) && !fs.lstatSync(p).isDirectory()) fs.rmSync(p);
        }
        const p = path.join(workTree, f);
        if (fs.existsSync(p) && fs.lstatSync(p).isDirectory()) fs.rmSync(p, { recursive: true });
      }
      await git(workTree, ["checkout-index", "-f", "-z", "--stdin"], { env, input: written.join("\0") });
    } finally {
      fs.rmSync(index, { force: true });
    }
  }
  return true;
}

/**
 * Before a work tree leaves its branch: whatever it holds is committed on the branch by the hub (so the work stays
 * there), and the index follows the new tip (the files are that already), so the switch that comes next sees a clean
 * work tree.
 */
async function commitWork(workTree: string, branch: string, why: string) {
  const cp = await checkpoint(workTree, why);
  if (cp.uncommitted) await git(workTree, ["update-ref", `refs/heads/${branch}`, cp.commit, cp.head]);
  await git(workTree, ["reset", "-q"]);
  return cp;
}

/**
 * A replay's fresh start for one work tree: its work is committed on its branch (the earlier run's code stays there),
 * then the work tree switches to `newBranch` started at `commit`. Same directory, so the session's process keeps
 * working where it is. Returns the commit the old branch now ends at.
 */
export async function branchFrom(workTree: string, oldBranch: string, newBranch: string, commit: string, why: string): Promise<string> {
  const cp = await commitWork(workTree, oldBranch, why);
  await git(workTree, ["checkout", "-q", "-b", newBranch, commit]);
  return cp.commit;
}

/** Undoes branchFrom when the transaction that records it fails: back on the old branch, the new one deleted. */
export async function unbranch(workTree: string, oldBranch: string, newBranch: string): Promise<void> {
  await git(workTree, ["checkout", "-q", "-f", oldBranch]);
  await git(workTree, ["branch", "-D", newBranch], { ok: [1] });
}

/**
 * The undo of a replay (and its redo): the work tree goes back to a branch it left, in the same directory. Its work
 * is committed on the branch it leaves first, which keeps it. Returns the undo of this step.
 */
export async function switchBranch(workTree: string, from: string, to: string, why: string): Promise<() => Promise<void>> {
  const cp = await commitWork(workTree, from, why);
  await git(workTree, ["checkout", "-q", to]);
  return async () => {
    await git(workTree, ["checkout", "-q", "-f", from]);
    if (cp.uncommitted) await git(workTree, ["update-ref", `refs/heads/${from}`, cp.head, cp.commit]);
    await git(workTree, ["reset", "-q"]);
  };
}
