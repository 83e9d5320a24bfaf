/**
 * A session's changes (docs/worktrees.md#changes): the diff from its base commit to its work tree as
 * it is now — commits, uncommitted edits and untracked files (not ignored ones) — and the files that
 * two live sessions of a team both changed. Reads only: no ref, index or file of the session moves.
 */
import type { Sql } from "../../db/connection.ts";
import { sql, values } from "../../db/sql.ts";
import type { ArtifactVersionRow, SessionRow, WorktreeRow } from "../../db/rows.ts";
import { DomainError, notFound } from "../../errors.ts";
import type { ChangesInput, ChangesView, FileChange, OverlapsInput, OverlapsView } from "../../../lib/api/worktrees.ts";
import { LIVE_STATUSES } from "../../../lib/api/sessions.ts";
import { authorize, type Operation } from "../auth/capabilities.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { sessionOwners } from "../sessions/ownership.ts";
import { workState } from "./checkpoint.ts";
import { parseChanges } from "./diff-parse.ts";
import { git, resolveRef } from "./git.ts";
import { refOf, requireWorktree } from "./worktrees.repo.ts";

/**
 * A work tree is owned as its session is (itself, its spawner); a branch the session left (a replay's first run) as
 * the session of that name in the team; a deleted session's branch by the name it had.
 */
export async function authorizeWorktree(s: Sql, actor: Principal, operation: Operation, w: WorktreeRow): Promise<void> {
  type Owner = Pick<SessionRow, "principal" | "spawnedBy">;
  const owner =
    w.sessionPk === null
      ? await s.get<Owner>(sql`SELECT "principal","spawnedBy" FROM "Session" WHERE "name" = ${w.session} AND "teamId" = ${w.teamId}`)
      : await s.get<Owner>(sql`SELECT "principal","spawnedBy" FROM "Session" WHERE "pk" = ${w.sessionPk}`);
  await authorize(s, actor, operation, { team: w.teamId, owners: sessionOwners({ name: w.session, ...owner }), label: `'${w.session}'` });
}

export const branchGone = (w: WorktreeRow) =>
  new DomainError("precondition_failed", `name: branch '${w.branch}' of session '${w.session}' no longer exists in '${w.repoDir}' (deleted outside the hub)`, {
    field: "name",
    rule: "branch_exists",
    branch: w.branch,
  });

/** What the diff is taken to: the work tree's files when there is one, else the branch. */
export async function diffTarget(w: WorktreeRow): Promise<{ to: string; head: string; uncommitted: boolean }> {
  const tip = await resolveRef(w.repoDir, `refs/heads/${w.branch}`);
  if (!tip) throw branchGone(w);
  if (!w.path) return { to: tip, head: tip, uncommitted: false };
  const state = await workState(w.path);
  return { to: state.tree, head: state.head, uncommitted: state.uncommitted };
}

export async function sessionChanges(deps: DomainDeps, actor: Principal, input: ChangesInput): Promise<ChangesView> {
  const w = await deps.db.read(async (s) => {
    const w = await requireWorktree(s, input.name);
    await authorizeWorktree(s, actor, "session.read", w);
    return w;
  });
  // `at`: an artifact version's code (docs/worktrees.md#code-in-the-lineage) — pinned, so it resolves after a discard too.
  const target = input.at ? { to: await commitAt(deps, w, input.at), head: input.at, uncommitted: false } : await diffTarget(w);
  const files = await diffFiles(w.repoDir, w.baseCommit, target.to);
  return {
    name: w.session,
    worktree: refOf(w),
    head: target.head,
    uncommitted: target.uncommitted,
    files,
    additions: files.reduce((n, f) => n + f.additions, 0),
    deletions: files.reduce((n, f) => n + f.deletions, 0),
  };
}

/**
 * `at` must be this session's code: on its branch, or recorded as the code of a version it published (a checkpoint,
 * or a branch it left). All sessions of a repository share one object store, so a commit that merely exists there may
 * be another session's — another team's — work, which the right to read this session does not cover.
 */
async function commitAt(deps: DomainDeps, w: WorktreeRow, at: string): Promise<string> {
  const commit = await resolveRef(w.repoDir, at);
  if (!commit) throw notFound("commit", at, "at");
  const published = await deps.db.read((s) =>
    s.get<Pick<ArtifactVersionRow, "seq">>(
      sql`SELECT v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
       WHERE a."teamId" = ${w.teamId} AND v."sessionId" = ${w.session} AND v."codeCommit" = ${commit} LIMIT 1`,
    ),
  );
  const onBranch = async () =>
    (await resolveRef(w.repoDir, `refs/heads/${w.branch}`)) !== null &&
    (await git(w.repoDir, ["merge-base", "--is-ancestor", commit, `refs/heads/${w.branch}`], { ok: [1] })).code === 0;
  if (!published && !(await onBranch())) throw notFound(`commit of session '${w.session}'`, at, "at");
  return commit;
}

/** The diff between two commits or trees of one repository, as files with hunks. */
export async function diffFiles(repoDir: string, from: string, to: string): Promise<FileChange[]> {
  const [numstat, patch] = await Promise.all([
    git(repoDir, ["diff", "--no-renames", "--no-ext-diff", "--numstat", "-z", from, to]),
    git(repoDir, ["diff", "--no-renames", "--no-ext-diff", "--no-color", from, to]),
  ]);
  return parseChanges(numstat.stdout, patch.stdout);
}

/** The paths a work tree changed against its base (for overlaps: names only). */
async function changedPaths(w: WorktreeRow): Promise<string[]> {
  const target = await diffTarget(w);
  const r = await git(w.repoDir, ["diff", "--no-renames", "--name-only", "-z", w.baseCommit, target.to]);
  return r.stdout.split("\0").filter(Boolean);
}

const LIVE = values(LIVE_STATUSES);

/**
 * Files changed by two or more live sessions of the team (docs/worktrees.md#overlaps): what will
 * conflict, or at least needs a look, when both are merged. Names only, so anyone may ask.
 */
export async function overlaps(deps: DomainDeps, input: OverlapsInput): Promise<OverlapsView> {
  const live = await deps.db.read((s) =>
    s.all<WorktreeRow>(
      sql`SELECT w.* FROM "Worktree" w JOIN "Session" s ON s."pk" = w."sessionPk"
       WHERE w."teamId" = ${input.team} AND w."path" IS NOT NULL AND s."status" IN (${LIVE}) ORDER BY w."session"`,
    ),
  );
  const by = new Map<string, { repoDir: string; path: string; sessions: string[] }>();
  for (const w of live) {
    // A work tree removed under the hub's feet has nothing to compare; the others still do.
    const paths = await changedPaths(w).catch(() => []);
    for (const p of paths) {
      const key = `${w.repoDir}\0${p}`;
      const entry = by.get(key) ?? { repoDir: w.repoDir, path: p, sessions: [] };
      entry.sessions.push(w.session);
      by.set(key, entry);
    }
  }
  const files = [...by.values()].filter((f) => f.sessions.length > 1).sort((a, b) => a.repoDir.localeCompare(b.repoDir) || a.path.localeCompare(b.path));
  return { team: input.team, files, sessions: live.map((w) => w.session) };
}
