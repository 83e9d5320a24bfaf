/** Real git repositories for the work-tree benchmarks, and the timing helpers they share. */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-C", cwd, "-c", "user.name=Bench", "-c", "user.email=bench@localhost", ...args], { encoding: "utf8", maxBuffer: 1 << 28 });

/** A repository of `files` files spread over `dirs` directories, all committed on `main`. */
export function plantRepo(repo: string, files: number, dirs: number, content: (i: number) => string): void {
  fs.mkdirSync(repo, { recursive: true });
  git(repo, "init", "-q", "-b", "main");
  for (let i = 0; i < files; i++) {
    const dir = path.join(repo, "src", `d${i % dirs}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `f${i}.ts`), content(i));
  }
  git(repo, "add", "-A");
  git(repo, "commit", "-q", "-m", "start");
}

export async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}
