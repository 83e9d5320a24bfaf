/**
 * A work tree's whole state — committed, uncommitted and untracked (ignored files left out) — as one
 * commit, without touching its branch, index or files (docs/worktrees.md#checkpoints). A copy of the
 * work tree's index is used so that `git add -A` can trust its stat cache instead of hashing every file.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { git, gitText } from "./git.ts";

export type WorkState = { tree: string; head: string; uncommitted: boolean };

/** The tree the work tree's files make now (and HEAD), without writing a commit: enough for a diff. */
export async function workState(workTree: string): Promise<WorkState> {
  const head = await gitText(workTree, ["rev-parse", "HEAD"]);
  const index = path.resolve(workTree, await gitText(workTree, ["rev-parse", "--git-path", "index"]));
  const temp = path.join(os.tmpdir(), `teamhub-index-${randomUUID()}`);
  try {
    if (fs.existsSync(index)) {
      fs.copyFileSync(index, temp);
      // The copy keeps the index's time: git treats an entry as possibly changed when its file is not older than the
      // index ("racy git"); a copy stamped now would hide a same-size edit made in the index's last second.
      const st = fs.statSync(index);
      fs.utimesSync(temp, st.atime, st.mtime);
    }
    const env = { GIT_INDEX_FILE: temp };
    await git(workTree, ["add", "-A", "--", "."], { env });
    const tree = await gitText(workTree, ["write-tree"], env);
    return { tree, head, uncommitted: tree !== (await gitText(workTree, ["rev-parse", "HEAD^{tree}"])) };
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

export type Checkpoint = { commit: string; head: string; uncommitted: boolean };

/** The work tree's state as a commit on no branch (HEAD itself when nothing is uncommitted). */
export async function checkpoint(workTree: string, message: string): Promise<Checkpoint> {
  const state = await workState(workTree);
  if (!state.uncommitted) return { commit: state.head, head: state.head, uncommitted: false };
  const commit = await gitText(workTree, ["commit-tree", state.tree, "-p", state.head, "-m", message]);
  return { commit, head: state.head, uncommitted: true };
}
