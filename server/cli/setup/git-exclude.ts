/**
 * The project's local settings file holds the hooks' token, so it must never be committed.
 * When git would not already ignore it, setup adds one line for it to the repository's own
 * exclude file (.git/info/exclude: never committed, never shared) and uninstall removes exactly
 * that line again.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export type Exclusion = { excludeFile: string; line: string };

function git(cwd: string, args: string[]): { ok: boolean; out: string } {
  const r = spawnSync("git", ["-C", cwd, ...args], { encoding: "utf8", timeout: 5000, stdio: ["ignore", "pipe", "ignore"] });
  return { ok: r.status === 0, out: (r.stdout ?? "").trim() };
}

/** Adds the exclusion when `file` is in a git work tree and not ignored yet; null when nothing was needed. */
export function excludeFromGit(file: string): Exclusion | null {
  const dir = path.dirname(file);
  const top = git(dir, ["rev-parse", "--show-toplevel"]);
  if (!top.ok) return null;
  const relative = path.relative(top.out, file).split(path.sep).join("/");
  if (git(top.out, ["check-ignore", "-q", "--", relative]).ok) return null;
  const excludeFile = path.resolve(top.out, git(top.out, ["rev-parse", "--git-path", "info/exclude"]).out);
  const line = `/${relative}`;
  const existing = fs.existsSync(excludeFile) ? fs.readFileSync(excludeFile, "utf8") : "";
  fs.mkdirSync(path.dirname(excludeFile), { recursive: true });
  fs.writeFileSync(excludeFile, `${existing}${existing && !existing.endsWith("\n") ? "\n" : ""}${line}\n`);
  return { excludeFile, line };
}

export function removeExclusion(e: Exclusion | undefined) {
  if (!e || !fs.existsSync(e.excludeFile)) return;
  const lines = fs.readFileSync(e.excludeFile, "utf8").split("\n");
  const at = lines.lastIndexOf(e.line);
  if (at === -1) return;
  lines.splice(at, 1);
  fs.writeFileSync(e.excludeFile, lines.join("\n"));
}
