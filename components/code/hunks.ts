/**
 * The hub's hunks (lines with their markers, lib/api/worktrees.ts) in react-diff-view's shape, with the line
 * numbers each change has on its side. A line comment names a file and a line; `lineOf` says which.
 */
import type { ChangeData, DiffType, HunkData } from "react-diff-view";
import type { FileChange, Hunk } from "@/lib/api/worktrees.ts";

export function toHunkData(hunk: Hunk): HunkData {
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  const changes: ChangeData[] = [];
  for (const line of hunk.lines) {
    const marker = line[0];
    const content = line.slice(1);
    // "\ No newline at end of file" describes the line before it; the viewer has no row for it.
    if (marker === "+") changes.push({ type: "insert", isInsert: true, content, lineNumber: newLine++ });
    else if (marker === "-") changes.push({ type: "delete", isDelete: true, content, lineNumber: oldLine++ });
    else if (marker === " ") changes.push({ type: "normal", isNormal: true, content, oldLineNumber: oldLine++, newLineNumber: newLine++ });
  }
  return { content: hunk.header, oldStart: hunk.oldStart, oldLines: hunk.oldLines, newStart: hunk.newStart, newLines: hunk.newLines, changes };
}

const DIFF_TYPES: Record<FileChange["change"], DiffType> = { added: "add", deleted: "delete", modified: "modify", type_changed: "modify" };
export const diffTypeOf = (file: FileChange): DiffType => DIFF_TYPES[file.change];

/** Where a change sits, as a reviewer names it: the new file's line for added and kept lines, the old one's for removed. */
export function lineOf(change: ChangeData): { side: "old" | "new"; line: number } {
  if (change.type === "delete") return { side: "old", line: change.lineNumber };
  if (change.type === "insert") return { side: "new", line: change.lineNumber };
  return { side: "new", line: change.newLineNumber };
}

const MARKERS = { insert: "+", delete: "-", normal: " " } as const;
/** The marker git gives the line: what a review comment quotes with it. */
export const markerOf = (change: ChangeData): "+" | "-" | " " => MARKERS[change.type];

/** The rows a file's diff would render: what decides which files open at first. */
export const rowsOf = (file: FileChange) => file.hunks.reduce((n, h) => n + h.lines.length + 1, 0);
