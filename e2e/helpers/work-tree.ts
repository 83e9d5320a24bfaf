/**
 * For the continuity tests: a real git work tree in a temporary directory, and `teamhub hook`
 * run as Claude Code runs it (a process with the hook's JSON on stdin).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { BIN, ROOT } from "./hub-process.ts";

export type WorkTree = { dir: string; write(file: string, text: string): void; commit(message: string): string; status(): string };

/** A new repository in `dir` (default: a new temporary directory). */
export function workTree(dir = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-work-"))): WorkTree {
  const git = (...args: string[]) => execFileSync("git", ["-C", dir, "-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  return {
    dir,
    write: (file, text) => fs.writeFileSync(path.join(dir, file), text),
    commit: (message) => (git("add", "-A"), git("commit", "-q", "-m", message), git("rev-parse", "HEAD")),
    status: () => git("status", "--porcelain"),
  };
}

export type HookRun = { code: number | null; stdout: string; stderr: string; output: () => any };

/** `teamhub hook <event>` with `input` on stdin, as the principal of TEAMHUB_TOKEN in `env`. */
export function runHook(event: string, input: unknown, env: Record<string, string>, args: string[] = []): HookRun {
  const r = spawnSync(process.execPath, [BIN, "hook", event, ...args], {
    cwd: ROOT,
    input: typeof input === "string" ? input : JSON.stringify(input),
    env: { ...process.env, TEAMHUB_URL: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, output: () => JSON.parse(r.stdout) };
}
