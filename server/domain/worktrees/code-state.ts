/**
 * A work tree's code as a commit that lasts (docs/worktrees.md#code-in-the-lineage): artifact versions and
 * snapshots record it. The work tree's state is checkpointed (checkpoint.ts: branch, index and files untouched) and
 * the commit is kept alive by a private ref, `refs/teamhub/checkpoints/<commit>`: outside `refs/heads`, so no
 * branch list shows it and the session's branch never moves, yet `git gc` keeps it.
 */
import fs from "node:fs";
import type { WorktreeRow } from "../../db/rows.ts";
import type { CodeState } from "../../../lib/api/worktrees.ts";
import { checkpoint } from "./checkpoint.ts";
import { git } from "./git.ts";

export const CHECKPOINT_REFS = "refs/teamhub/checkpoints/";

/** Checkpoints one work tree (null when it has no directory any more: pruned or removed outside the hub). */
async function capture(w: WorktreeRow, why: string): Promise<CodeState | null> {
  if (!w.path || !fs.existsSync(w.path)) return null;
  const cp = await checkpoint(w.path, `teamhub: ${w.session}'s work tree ${why}`);
  return { session: w.session, branch: w.branch, repoDir: w.repoDir, commit: cp.commit, checkpoint: cp.uncommitted };
}

/**
 * The code of each work tree, pinned. Work trees are checkpointed two at a time (each is a handful of git
 * processes); the refs are written with one `update-ref --stdin` per repository. A commit already on the branch is
 * pinned too: the branch may be discarded later, the record must still resolve.
 */
export async function pinWorkTrees(rows: WorktreeRow[], why: string): Promise<CodeState[]> {
  const out: Array<CodeState | null> = new Array<CodeState | null>(rows.length).fill(null);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < rows.length; i = next++) out[i] = await capture(rows[i], why);
  };
  await Promise.all([worker(), worker()]);
  const states = out.filter((s): s is CodeState => s !== null);
  const byRepo = new Map<string, Set<string>>();
  for (const s of states) byRepo.set(s.repoDir, (byRepo.get(s.repoDir) ?? new Set()).add(s.commit));
  for (const [repoDir, commits] of byRepo) {
    const input = [...commits].map((c) => `update ${CHECKPOINT_REFS}${c} ${c}\n`).join("");
    await git(repoDir, ["update-ref", "--stdin"], { input });
  }
  return states;
}

export async function pinWorkTree(w: WorktreeRow, why: string): Promise<CodeState | null> {
  return (await pinWorkTrees([w], why))[0] ?? null;
}
