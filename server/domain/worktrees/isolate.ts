/**
 * Giving a new session a work tree of its own (docs/worktrees.md#isolation). Git runs before the
 * spawning transaction, outside the write lock (a checkout of a large repository takes a while), and
 * the transaction records what git made; when the transaction fails, what git made is removed again.
 * A crash between the two leaves a work tree dir and a branch no row knows: a later spawn of that name
 * says which branch is in the way (docs/worktrees.md#crash-safety).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { WriteTx } from "../../db/database.ts";
import type { SessionRow, WorktreeRow } from "../../db/rows.ts";
import { WORKTREES } from "../../data-dir.ts";
import { DomainError, invalidField } from "../../errors.ts";
import type { SessionKind } from "../../../lib/api/sessions.ts";
import type { Isolation } from "../../../lib/api/worktrees.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { grantSpawn, type SpawnDefaults, type SpawnRequest } from "../sessions/spawn-authority.ts";
import { teamSettings } from "../teams/settings.ts";
import type { RunnableView } from "../../../lib/api/runnable.ts";
import { checkpoint } from "./checkpoint.ts";
import { git, gitError, repositoryOf, resolveRef, validBranchName } from "./git.ts";
import { copyIncluded } from "./include.ts";
import { DEFAULT_PORT_RANGE, leasePorts, type PortRange } from "./ports.ts";
import { includePatternsAt, runnableAt } from "./runnable-config.ts";
import { insertWorktree, worktreeOfSession } from "./worktrees.repo.ts";

/** What git made for one new session, handed to the transaction that writes the session. */
export type MadeWorktree = {
  repoDir: string;
  path: string;
  branch: string;
  baseBranch: string | null;
  baseCommit: string;
  /** The session's work dir: the work tree, or the same subdirectory of it that was asked for in the repository. */
  workDir: string;
  /** The work dir the spawner's authority granted: the transaction checks it grants the same again. */
  granted: string;
  /** What makes it runnable (docs/worktrees.md#runnable-work-trees), read from the base branch; null: nothing configured. */
  runnable: RunnableView | null;
  /** The gitignored files `.worktreeinclude` copied in, relative to the work tree. */
  included: string[];
  portRange: PortRange;
};

export type IsolationRequest = SpawnRequest & { kind: SessionKind; isolation?: Isolation; base?: string; fieldPrefix?: string };

export const branchFor = (team: string, session: string) => `teamhub/${team}/${session}`;

/** Where work trees live: `<data dir>/worktrees/<random key>` (a name never builds a path, docs/domain.md#names). */
export const worktreesDir = (dataDir: string) => path.join(dataDir, WORKTREES);

type Plan = {
  repoDir: string;
  prefix: string;
  branch: string;
  baseBranch: string | null;
  baseCommit: string;
  granted: string;
  field: string;
  runnable: RunnableView | null;
  include: string[];
};

/** The runnable config and include patterns at `at`: the base branch's tip (the base commit when the base has no branch). */
async function runnableOf(deps: DomainDeps, team: string, repoDir: string, at: string) {
  const teamDefault = (await deps.db.read((sql) => teamSettings(sql, team))).worktree;
  // Both reads are git processes: started together, since a spawn waits for them.
  const [runnable, include] = await Promise.all([runnableAt(repoDir, at, teamDefault), includePatternsAt(repoDir, at)]);
  return { runnable, include };
}

async function planOne(deps: DomainDeps, actor: Principal, r: IsolationRequest, defaults: SpawnDefaults): Promise<Plan | null> {
  const field = r.fieldPrefix ?? "";
  const { granted, isolation } = await deps.db.read(async (sql) => {
    const settings = await teamSettings(sql, r.team);
    const isolation = r.isolation ?? (r.kind === "member" ? settings.memberIsolation : settings.isolation);
    if (isolation !== "worktree") return { isolation, granted: null };
    // A refusal of the spawner's authority is left to the spawning transaction, which says it in full (batch index included).
    return {
      isolation,
      granted: await grantSpawn(sql, actor, r, defaults).then(
        (g) => g.workDir,
        () => null,
      ),
    };
  });
  if (r.base !== undefined && isolation !== "worktree") {
    throw invalidField(`${field}base`, "needs_worktree", "a base branch applies only to isolation 'worktree'", r.base);
  }
  if (isolation !== "worktree" || granted === null || !fs.existsSync(granted)) return null;
  const repo = await repositoryOf(granted);
  if (!repo) {
    if (r.isolation === "worktree") {
      throw invalidField(`${field}isolation`, "in_repository", `'worktree' needs a work dir inside a git repository; '${granted}' is not in one`, r.isolation);
    }
    return null; // the team default applies only where there is a repository
  }
  if (!defaults.worktreesDir)
    throw new DomainError("precondition_failed", `${field}isolation: this hub has no place for work trees`, { field: `${field}isolation` });
  const branch = branchFor(r.team, r.name);
  if (!(await validBranchName(repo.top, branch))) {
    throw invalidField(`${field}name`, "branch_name", `'${branch}' is not a valid git branch name (git check-ref-format)`, r.name);
  }
  if (await resolveRef(repo.top, `refs/heads/${branch}`)) {
    throw new DomainError("conflict", `${field}name: branch '${branch}' already exists in '${repo.top}'; merge or discard it first`, {
      field: `${field}name`,
      rule: "branch_free",
      branch,
    });
  }
  let baseBranch: string | null;
  if (r.base !== undefined) {
    if (!(await resolveRef(repo.top, `refs/heads/${r.base}`))) {
      throw invalidField(`${field}base`, "branch_exists", `branch '${r.base}' does not exist in '${repo.top}'`, r.base);
    }
    baseBranch = r.base;
  } else {
    const head = await git(repo.top, ["symbolic-ref", "-q", "--short", "HEAD"], { ok: [1] });
    baseBranch = head.code === 0 ? head.stdout.trim() : null;
  }
  const baseCommit = await resolveRef(repo.top, baseBranch ? `refs/heads/${baseBranch}` : "HEAD");
  if (!baseCommit) throw invalidField(`${field}workDir`, "has_commit", `the repository '${repo.top}' has no commit yet to branch from`, granted);
  // baseCommit is the base branch's tip, resolved just above.
  const { runnable, include } = await runnableOf(deps, r.team, repo.top, baseCommit);
  return { repoDir: repo.top, prefix: repo.prefix, branch, baseBranch, baseCommit, granted, field, runnable, include };
}

async function make(defaults: SpawnDefaults, plan: Plan, from: string): Promise<MadeWorktree> {
  const worktrees = defaults.worktreesDir!;
  fs.mkdirSync(worktrees, { recursive: true, mode: 0o700 });
  const dir = path.join(worktrees, randomUUID());
  try {
    await git(plan.repoDir, ["worktree", "add", "-q", "-b", plan.branch, dir, from]);
  } catch (e) {
    throw gitError(e, `${plan.field}workDir: creating the work tree`);
  }
  let included: string[];
  try {
    included = await copyIncluded(plan.repoDir, dir, plan.include);
  } catch (e) {
    await removeWorktree(plan.repoDir, dir, plan.branch).catch(() => undefined);
    throw e;
  }
  return {
    repoDir: plan.repoDir,
    path: dir,
    branch: plan.branch,
    baseBranch: plan.baseBranch,
    baseCommit: plan.baseCommit,
    workDir: path.resolve(dir, plan.prefix),
    granted: plan.granted,
    runnable: plan.runnable,
    included,
    portRange: defaults.portRange ?? DEFAULT_PORT_RANGE,
  };
}

/** Removes a work tree and its branch that no transaction recorded (or that the hub discards). Missing parts are fine. */
export async function removeWorktree(repoDir: string, dir: string | null, branch: string | null): Promise<void> {
  if (dir) {
    await git(repoDir, ["worktree", "remove", "--force", "--force", dir], { ok: [128] });
    fs.rmSync(dir, { recursive: true, force: true });
    await git(repoDir, ["worktree", "prune"], { ok: [128] });
  }
  if (branch) await git(repoDir, ["branch", "-D", branch], { ok: [1] });
}

/**
 * Runs `write` (the spawning transaction) with a work tree made for each request that gets one
 * (null: shared). If `write` fails, the work trees and branches are removed again.
 */
export async function withWorktrees<T>(
  deps: DomainDeps,
  actor: Principal,
  requests: IsolationRequest[],
  defaults: SpawnDefaults,
  write: (made: Array<MadeWorktree | null>) => Promise<T>,
): Promise<T> {
  const plans: Array<Plan | null> = [];
  for (const r of requests) plans.push(await planOne(deps, actor, r, defaults));
  const made: Array<MadeWorktree | null> = [];
  try {
    for (const p of plans) made.push(p ? await make(defaults, p, p.baseCommit) : null);
    return await write(made);
  } catch (e) {
    for (const m of made) if (m) await removeWorktree(m.repoDir, m.path, m.branch).catch(() => undefined);
    throw e;
  }
}

/**
 * A fork of a session with a work tree branches from the parent's work tree as it is now: its
 * uncommitted work is checkpointed (on no branch) and the fork's branch starts there, so the fork
 * sees exactly the parent's files. The fork keeps the parent's base branch and base commit.
 */
export async function withForkWorktree<T>(
  deps: DomainDeps,
  parent: SessionRow,
  fork: { team: string; name: string },
  defaults: SpawnDefaults,
  write: (made: MadeWorktree | null) => Promise<T>,
): Promise<T> {
  const w = await deps.db.read((sql) => worktreeOfSession(sql, parent.pk));
  if (!w?.path || !defaults.worktreesDir) return write(null);
  const branch = branchFor(fork.team, fork.name);
  if (!(await validBranchName(w.repoDir, branch))) throw invalidField("newName", "branch_name", `'${branch}' is not a valid git branch name`, fork.name);
  if (await resolveRef(w.repoDir, `refs/heads/${branch}`)) {
    throw new DomainError("conflict", `newName: branch '${branch}' already exists in '${w.repoDir}'; merge or discard it first`, { field: "newName", branch });
  }
  const from = await checkpoint(w.path, `teamhub: work of ${parent.name} when ${fork.name} was forked from it`);
  const prefix = path.relative(w.path, parent.workDir);
  const at = (w.baseBranch && (await resolveRef(w.repoDir, `refs/heads/${w.baseBranch}`))) || w.baseCommit;
  const { runnable, include } = await runnableOf(deps, fork.team, w.repoDir, at);
  const plan: Plan = {
    repoDir: w.repoDir,
    prefix,
    branch,
    baseBranch: w.baseBranch,
    baseCommit: w.baseCommit,
    granted: parent.workDir,
    field: "",
    runnable,
    include,
  };
  const made = await make(defaults, plan, from.commit);
  try {
    return await write(made);
  } catch (e) {
    await removeWorktree(made.repoDir, made.path, made.branch).catch(() => undefined);
    throw e;
  }
}

/** Inside the spawning transaction: the session row exists; its work tree is recorded and announced. */
export async function recordWorktree(tx: WriteTx, s: { pk: number; name: string; teamId: string }, m: MadeWorktree): Promise<WorktreeRow> {
  const row = await insertWorktree(tx, {
    teamId: s.teamId,
    session: s.name,
    sessionPk: s.pk,
    repoDir: m.repoDir,
    path: m.path,
    branch: m.branch,
    baseBranch: m.baseBranch,
    baseCommit: m.baseCommit,
    runnable: m.runnable ? JSON.stringify(m.runnable) : null,
    included: JSON.stringify(m.included),
    setupStatus: m.runnable?.setup ? "pending" : null,
  });
  // Every work-tree session holds its ports (one unless the config says otherwise) for as long as its work tree exists.
  await leasePorts(tx, { id: row.id, teamId: s.teamId, session: s.name }, m.runnable?.ports ?? 1, m.portRange);
  await tx.emit({
    teamId: s.teamId,
    type: "worktree.created",
    subject: `session:${s.name}`,
    payload: { name: s.name, repoDir: m.repoDir, path: m.path, branch: m.branch, baseBranch: m.baseBranch, baseCommit: m.baseCommit },
  });
  return row;
}
