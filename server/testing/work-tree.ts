/** A real git work tree in a temporary directory, for the tests of what briefings say about files. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "./temp-dir.ts";

export type WorkTree = {
  dir: string;
  write(file: string, text: string): void;
  commit(message: string): string;
  status(): string;
  git(...args: string[]): string;
  /** The paths of the repository's work trees, the main one first (`git worktree list`). */
  worktrees(): string[];
};

/** A new repository in `dir` (default: a new temporary directory). */
export function workTree(dir = tempDir("work")): WorkTree {
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  return {
    dir,
    write: (file, text) => fs.writeFileSync(path.join(dir, file), text),
    commit: (message) => (git("add", "-A"), git("commit", "-q", "-m", message), git("rev-parse", "HEAD")),
    status: () => git("status", "--porcelain"),
    git,
    worktrees: () =>
      git("worktree", "list", "--porcelain")
        .split("\n")
        .filter((l) => l.startsWith("worktree "))
        .map((l) => l.slice("worktree ".length)),
  };
}
