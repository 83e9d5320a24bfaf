/**
 * Work-tree dirs a crash left behind (docs/worktrees.md#crash-safety): `git worktree add` runs before the spawning
 * transaction, so a hub that dies in between leaves a dir under `<data dir>/worktrees/` and a branch that no Worktree
 * row knows, and a later spawn of that name would find the branch in the way. At start the supervisor removes such
 * dirs, and their branch when it has no work beyond the commit it was made from; a branch with work is kept and logged.
 *
 * A dir younger than `GRACE_MS` is left alone: another process (a CLI running the domain itself) may be between its
 * `git worktree add` and its transaction right now.
 */
import fs from "node:fs";
import path from "node:path";
import { sql } from "../../db/sql.ts";
import type { WorktreeRow } from "../../db/rows.ts";
import type { DomainDeps } from "../deps.ts";
import { checkpoint } from "./checkpoint.ts";
import { git } from "./git.ts";
import { removeWorktree } from "./isolate.ts";

export const GRACE_MS = 10 * 60 * 1000;

type Stray = { dir: string; repoDir: string | null; branch: string | null };

/** The repository and branch of a work-tree dir, from git itself; nulls when it is not (or no longer) a work tree. */
async function strayOf(dir: string): Promise<Stray> {
  if (!fs.existsSync(path.join(dir, ".git"))) return { dir, repoDir: null, branch: null };
  const common = await git(dir, ["rev-parse", "--path-format=absolute", "--git-common-dir"], { ok: [128] });
  if (common.code !== 0) return { dir, repoDir: null, branch: null };
  const head = await git(dir, ["symbolic-ref", "-q", "--short", "HEAD"], { ok: [1] });
  // The common dir of a non-bare repository is `<top>/.git`; git worktree commands run from any of its work trees.
  return { dir, repoDir: path.dirname(common.stdout.trim()), branch: head.code === 0 ? head.stdout.trim() : null };
}

/**
 * Whether `branch` never moved since it was made: its reflog holds only its creation. Sessions do not commit (the
 * hub does, on merge, replay and prune), so a branch that never moved has no work of its own. No reflog: not known,
 * so kept.
 */
async function untouched(repoDir: string, branch: string): Promise<boolean> {
  const log = await git(repoDir, ["reflog", "show", "--format=%H", `refs/heads/${branch}`, "--"], { ok: [128] });
  return log.code === 0 && log.stdout.trim().split("\n").filter(Boolean).length === 1;
}

/** Whether the dir was removed: one on a branch a row knows is some session's work tree after all, and stays. */
async function sweepOne(s: Stray, known: Set<string>): Promise<boolean> {
  if (!s.repoDir) {
    fs.rmSync(s.dir, { recursive: true, force: true });
    return true;
  }
  if (s.branch && known.has(`${fs.realpathSync(s.repoDir)}\0${s.branch}`)) {
    console.error(`[teamhub] ${s.dir} is not the path of any work tree, yet its branch '${s.branch}' is one the hub knows: left alone`);
    return false;
  }
  let keep = s.branch === null;
  if (s.branch) {
    // Files written there are work too: committed on the branch, as a prune does, and the branch stays.
    const cp = await checkpoint(s.dir, `teamhub: work left in the stray work tree ${path.basename(s.dir)}`);
    if (cp.uncommitted) await git(s.repoDir, ["update-ref", `refs/heads/${s.branch}`, cp.commit, cp.head]);
    keep = cp.uncommitted || !(await untouched(s.repoDir, s.branch));
  }
  await removeWorktree(s.repoDir, s.dir, keep ? null : s.branch);
  if (keep && s.branch) console.error(`[teamhub] removed the stray work tree ${s.dir}; its branch '${s.branch}' in '${s.repoDir}' holds work and was kept`);
  return true;
}

/** Removes the dirs under `worktreesDir` that no Worktree row knows; returns how many. One that fails is logged and left. */
export async function sweepStrayWorktrees(deps: DomainDeps, worktreesDir: string, now = Date.now()): Promise<number> {
  if (!fs.existsSync(worktreesDir)) return 0;
  const rows = await deps.db.read((s) => s.all<Pick<WorktreeRow, "path" | "repoDir" | "branch">>(sql`SELECT "path","repoDir","branch" FROM "Worktree"`));
  const real = (p: string) => (fs.existsSync(p) ? fs.realpathSync(p) : path.resolve(p));
  const paths = new Set(rows.flatMap((r) => (r.path ? [real(r.path)] : [])));
  const known = new Set(rows.map((r) => `${real(r.repoDir)}\0${r.branch}`));
  let swept = 0;
  for (const name of fs.readdirSync(worktreesDir)) {
    const dir = path.join(worktreesDir, name);
    const st = fs.lstatSync(dir);
    if (!st.isDirectory() || paths.has(fs.realpathSync(dir)) || now - st.mtimeMs < GRACE_MS) continue;
    try {
      if (await sweepOne(await strayOf(dir), known)) swept++;
    } catch (e) {
      console.error(`[teamhub] sweeping the stray work tree ${dir}:`, e);
    }
  }
  return swept;
}
