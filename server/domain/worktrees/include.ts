/**
 * `.worktreeinclude` (docs/worktrees.md#copied-files): the repository's gitignored files that match its patterns are
 * copied from the main work tree into a new work tree. Every file is checked before any is copied, so a bad one
 * (a symlink that leads out of the repository) refuses the spawn with nothing copied.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { invalidField } from "../../errors.ts";
import { git } from "./git.ts";
import { INCLUDE_FILE } from "./runnable-config.ts";

// A pattern that sweeps in a whole dependency tree is a mistake: refused instead of copying it.
const MAX_FILES = 5000;

const inside = (p: string, dir: string) => p === dir || p.startsWith(dir + path.sep);

/** The files of the main work tree that match the patterns and that the repository ignores, relative to its top. */
export async function includedFiles(repoDir: string, patterns: string[]): Promise<string[]> {
  if (patterns.length === 0) return [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-include-"));
  try {
    const list = path.join(tmp, "patterns");
    fs.writeFileSync(list, patterns.join("\n") + "\n");
    // Untracked files the include patterns match (git's own gitignore matching) …
    const matched = (await git(repoDir, ["ls-files", "-z", "--others", "--ignored", `--exclude-from=${list}`])).stdout.split("\0").filter(Boolean);
    if (matched.length === 0) return [];
    // … of which the repository's own rules ignore: a file that is merely untracked is the user's unfinished work.
    const ignored = await git(repoDir, ["check-ignore", "-z", "--stdin"], { input: matched.join("\0") + "\0", ok: [1] });
    const files = ignored.stdout.split("\0").filter(Boolean).sort();
    if (files.length > MAX_FILES) {
      throw invalidField(INCLUDE_FILE, "max_files", `matches ${files.length} files; at most ${MAX_FILES} are copied (list files, not dependency dirs)`);
    }
    return files;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Refuses a file that is, or lies under, a symlink leading out of the repository: its contents are not the repository's. */
function checkInside(repoDir: string, rel: string): void {
  const top = fs.realpathSync(repoDir);
  const real = fs.realpathSync(path.join(repoDir, rel));
  if (!inside(real, top)) {
    throw invalidField(INCLUDE_FILE, "inside_repository", `'${rel}' leads out of the repository (to '${real}'): not copied`, rel);
  }
}

const present = (p: string) => {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
};

/**
 * Where a file goes in the new work tree, or null when the branch has something there already (a tracked file, link or
 * dir: the tracked one stays). A link the branch tracks on the way that leads out of the work tree is refused: the
 * copy would be written wherever it leads.
 */
function destination(tree: string, rel: string): string | null {
  const to = path.join(tree, rel);
  let at = to;
  while (!present(at)) at = path.dirname(at);
  if (at === to) return null;
  const real = fs.realpathSync(at);
  if (!inside(real, fs.realpathSync(tree))) {
    throw invalidField(
      INCLUDE_FILE,
      "inside_repository",
      `'${rel}' would be written through '${path.relative(tree, at)}', a link the branch tracks out of the work tree (to '${real}'): not copied`,
      rel,
    );
  }
  return fs.statSync(real).isDirectory() ? to : null;
}

/** Copies the files (checked first, all of them) from the main work tree into the new one, keeping their modes; returns those copied. */
export async function copyIncluded(repoDir: string, tree: string, patterns: string[]): Promise<string[]> {
  const files = await includedFiles(repoDir, patterns);
  for (const rel of files) checkInside(repoDir, rel);
  const copies = files.flatMap((rel) => {
    const to = destination(tree, rel);
    return to ? [{ rel, from: path.join(repoDir, rel), to }] : [];
  });
  for (const { from, to } of copies) {
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(fs.realpathSync(from), to, fs.constants.COPYFILE_EXCL);
    fs.chmodSync(to, fs.statSync(from).mode & 0o777);
  }
  return copies.map((c) => c.rel);
}
