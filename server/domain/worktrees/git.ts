/**
 * The hub runs git itself (docs/worktrees.md): one place that starts the `git` CLI, with an
 * environment of its own so that neither the user's pager, editor, hooks-prompting terminal nor a
 * GIT_DIR inherited from a hook changes what a command does.
 */
import { spawn } from "node:child_process";
import { DomainError } from "../../errors.ts";

export type GitResult = { stdout: string; stderr: string; code: number };

/** Who the hub's own commits are by: a checkpoint, a squash or a merge is the hub's act, on the session's behalf. */
export const HUB_IDENTITY = { name: "Team Hub", email: "teamhub@localhost" };

function gitEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (k.startsWith("GIT_")) delete env[k];
  Object.assign(env, {
    LC_ALL: "C",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    GIT_EDITOR: "true",
    GIT_AUTHOR_NAME: HUB_IDENTITY.name,
    GIT_AUTHOR_EMAIL: HUB_IDENTITY.email,
    GIT_COMMITTER_NAME: HUB_IDENTITY.name,
    GIT_COMMITTER_EMAIL: HUB_IDENTITY.email,
    ...extra,
  });
  return env;
}

/**
 * Runs `git -C cwd …args`. `ok`: exit codes that are answers rather than failures (merge-tree's 1:
 * conflicts); any other code throws, with git's own message.
 */
export function git(cwd: string, args: string[], options: { env?: Record<string, string>; ok?: number[]; input?: string } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", ["-C", cwd, "-c", "core.quotePath=false", ...args], { env: gitEnv(options.env ?? {}), stdio: ["pipe", "pipe", "pipe"] });
    // stdin is a pipe for commands that read one (update-ref --stdin, checkout-index --stdin); closed at once otherwise.
    child.stdin.on("error", () => undefined);
    child.stdin.end(options.input ?? "");
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.on("error", reject);
    child.on("close", (code) => {
      const r = { stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8"), code: code ?? -1 };
      if (r.code === 0 || options.ok?.includes(r.code)) resolve(r);
      else reject(new GitFailed(args, r));
    });
  });
}

export class GitFailed extends Error {
  constructor(
    readonly args: string[],
    readonly result: GitResult,
  ) {
    super(`git ${args.slice(0, 3).join(" ")} failed (${result.code}): ${result.stderr.trim().split("\n").slice(-3).join(" ") || result.stdout.trim()}`);
  }
}

/** stdout without its final newline. */
export const gitText = async (cwd: string, args: string[], env?: Record<string, string>) => (await git(cwd, args, { env })).stdout.replace(/\n$/, "");

/** The commit a ref names, or null when there is no such ref. */
export async function resolveRef(cwd: string, ref: string): Promise<string | null> {
  const r = await git(cwd, ["rev-parse", "--verify", "-q", `${ref}^{commit}`], { ok: [1, 128] });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The tree a commit (or ref) holds, or null when there is no such commit. */
export async function treeOf(cwd: string, rev: string): Promise<string | null> {
  const r = await git(cwd, ["rev-parse", "--verify", "-q", `${rev}^{tree}`], { ok: [1, 128] });
  return r.code === 0 ? r.stdout.trim() : null;
}

/** The top level and the path of `dir` below it, or null when `dir` is not inside a git work tree. */
export async function repositoryOf(dir: string): Promise<{ top: string; prefix: string } | null> {
  const r = await git(dir, ["rev-parse", "--show-toplevel", "--show-prefix"], { ok: [128] });
  if (r.code !== 0) return null;
  const [top, prefix = ""] = r.stdout.split("\n");
  return { top, prefix };
}

/** Whether `name` is a valid branch name (git's own rules: no `..`, no trailing `.lock`, …). */
export async function validBranchName(cwd: string, name: string): Promise<boolean> {
  return (await git(cwd, ["check-ref-format", "--branch", name], { ok: [1, 128] })).code === 0;
}

/** A git failure the caller did not foresee, as the domain's error (the message is git's). */
export const gitError = (e: unknown, doing: string): DomainError =>
  e instanceof GitFailed ? new DomainError("precondition_failed", `${doing}: ${e.message}`, { git: e.result.stderr.trim().slice(-2000) }) : (e as DomainError);
