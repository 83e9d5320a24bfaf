/**
 * What a work tree says, for briefings (docs/domain.md#continuity): HEAD, and the files changed since the HEAD of the
 * caller's last checkpoint plus those changed and not committed. The hub never sees the work
 * tree, so the caller (a hook, `teamhub briefing`) computes these. Every git call is bounded in
 * time, and anything git cannot answer (no repository, no commits, a commit that was rebased
 * away) is left out rather than failing.
 */
import { spawnSync } from "node:child_process";
import { MAX_CHANGED_FILES, type GitFacts } from "../../lib/api/continuity.ts";
import type { CallOptions, TeamHub } from "../../lib/client/team-hub.ts";

const GIT_TIMEOUT_MS = 5000;
const MAX_PATH_CHARS = 4096;

function git(cwd: string, args: string[]): string | null {
  // No optional locks: `git status` refreshing the index must not make the user's own git commands fail on index.lock.
  const env = { ...process.env, GIT_OPTIONAL_LOCKS: "0" };
  const r = spawnSync("git", ["-C", cwd, ...args], {
    encoding: "utf8",
    env,
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });
  return r.status === 0 ? r.stdout : null;
}

export const isWorkTree = (cwd: string) => git(cwd, ["rev-parse", "--is-inside-work-tree"])?.trim() === "true";

/** `git status --porcelain -z`: "XY path\0", with the original path after renames and copies. */
export function porcelainPaths(out: string): string[] {
  const parts = out.split("\0");
  const paths: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i].length < 4) continue;
    paths.push(parts[i].slice(3));
    if (parts[i][0] === "R" || parts[i][0] === "C") i++;
  }
  return paths;
}

/** Facts for a work tree; `since` (a HEAD from a checkpoint) adds what was committed after it. */
export function gitFacts(cwd: string, since?: string): GitFacts | undefined {
  if (!isWorkTree(cwd)) return undefined;
  const head = git(cwd, ["rev-parse", "--verify", "-q", "HEAD"])?.trim() || undefined;
  const committed = since && head && since !== head ? git(cwd, ["diff", "--name-only", "-z", since, head]) : null;
  const dirty = porcelainPaths(git(cwd, ["status", "--porcelain", "-z"]) ?? "");
  const files = [...new Set([...(committed?.split("\0") ?? []), ...dirty])].filter((f) => f && f.length <= MAX_PATH_CHARS);
  return {
    ...(head ? { head } : {}),
    ...(committed !== null ? { since } : {}),
    changedFiles: files.slice(0, MAX_CHANGED_FILES),
  };
}

/** Git facts counted from the HEAD of the last checkpoint of the caller (or of `member`, asked by an operator), asked of the hub first. */
export async function factsSinceCheckpoint(
  hub: TeamHub,
  cwd: string,
  asked: { claudeSessionId?: string; member?: string } = {},
  options: CallOptions = {},
): Promise<GitFacts | undefined> {
  if (!isWorkTree(cwd)) return undefined;
  const { checkpoint } = await hub.continuity.latestCheckpoint(asked, options);
  return gitFacts(cwd, checkpoint?.state.head);
}
