/**
 * `git diff` output as the file list of a changes view: `--numstat -z` for names and counts (exact,
 * whatever a name contains) and the unified patch for hunks. Both come from the same diff with
 * renames off, so the patch has one block per numstat entry, in the same order.
 */
import type { FileChange, Hunk } from "../../../lib/api/worktrees.ts";

/** Hunk lines kept per file; beyond it the file says `truncated` (the counts stay whole). */
export const MAX_HUNK_LINES_PER_FILE = 5_000;

type Stat = { path: string; additions: number; deletions: number; binary: boolean };

export function parseNumstat(z: string): Stat[] {
  const out: Stat[] = [];
  for (const entry of z.split("\0")) {
    if (!entry) continue;
    const [add, del, ...name] = entry.split("\t");
    const binary = add === "-" && del === "-";
    out.push({ path: name.join("\t"), additions: binary ? 0 : Number(add), deletions: binary ? 0 : Number(del), binary });
  }
  return out;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

function parseBlock(block: string[]): { change: FileChange["change"]; hunks: Hunk[]; truncated: boolean } {
  let change: FileChange["change"] = "modified";
  const hunks: Hunk[] = [];
  let kept = 0;
  let truncated = false;
  let hunk: Hunk | null = null;
  for (const line of block) {
    if (hunk === null) {
      if (line.startsWith("new file mode")) change = "added";
      else if (line.startsWith("deleted file mode")) change = "deleted";
    }
    const m = HUNK.exec(line);
    if (m) {
      hunk = {
        header: line,
        oldStart: Number(m[1]),
        oldLines: m[2] === undefined ? 1 : Number(m[2]),
        newStart: Number(m[3]),
        newLines: m[4] === undefined ? 1 : Number(m[4]),
        lines: [],
      };
      if (kept < MAX_HUNK_LINES_PER_FILE) hunks.push(hunk);
      else truncated = true;
      continue;
    }
    if (hunk && (line[0] === " " || line[0] === "+" || line[0] === "-" || line[0] === "\\")) {
      if (kept < MAX_HUNK_LINES_PER_FILE) {
        hunk.lines.push(line);
        kept++;
      } else truncated = true;
    }
  }
  return { change, hunks, truncated };
}

/** Splits a unified patch into its per-file blocks (each starts at `diff --git`). */
function blocks(patch: string): string[][] {
  const out: string[][] = [];
  for (const line of patch.split("\n")) {
    if (line.startsWith("diff --git ")) out.push([]);
    else out.at(-1)?.push(line);
  }
  return out;
}

export function parseChanges(numstatZ: string, patch: string): FileChange[] {
  const stats = parseNumstat(numstatZ);
  const parts = blocks(patch);
  // A type change (file ↔ symlink) can come as two patch blocks for one entry: the counts stay, the hunks go.
  if (parts.length !== stats.length) return stats.map((s) => ({ ...s, change: "type_changed", hunks: [], truncated: true }));
  return stats.map((s, i) => ({ ...s, ...parseBlock(parts[i]) }));
}
