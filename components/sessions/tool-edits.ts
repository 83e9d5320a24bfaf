/**
 * A file tool call (Edit, MultiEdit, Write) as the diff it asks for, in the changes view's shape
 * (lib/api/worktrees.ts), so the transcript shows it with the same diff viewer as the Changes tab.
 * Line numbers count within the edited text, not the file: the call does not say where in the file it lands.
 */
import { structuredPatch } from "diff";
import type { FileChange, Hunk } from "@/lib/api/worktrees.ts";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

// A snippet is lines, not a file's end: without this, a missing last newline shows as a change of its own.
const lines = (s: string) => (s === "" || s.endsWith("\n") ? s : `${s}\n`);

function hunksOf(before: string, after: string): Hunk[] {
  return structuredPatch("a", "b", lines(before), lines(after), "", "", { context: 3 }).hunks.map((h) => ({
    header: `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines,
  }));
}

function fileChange(path: string, change: FileChange["change"], hunks: Hunk[]): FileChange {
  const count = (marker: string) => hunks.reduce((n, h) => n + h.lines.filter((l) => l[0] === marker).length, 0);
  return { path, change, additions: count("+"), deletions: count("-"), binary: false, hunks, truncated: false };
}

/** The diff a file tool call asks for; null for other tools or an input without the expected strings. */
export function toolEdit(name: string, input: unknown): FileChange | null {
  const o = obj(input);
  const path = str(o.file_path);
  if (path === null) return null;
  if (name === "Write") {
    const content = str(o.content);
    return content === null ? null : fileChange(path, "added", hunksOf("", content));
  }
  const edits = name === "Edit" ? [o] : name === "MultiEdit" && Array.isArray(o.edits) ? o.edits.map(obj) : [];
  const pairs = edits.map((e) => [str(e.old_string), str(e.new_string)] as const);
  if (pairs.length === 0 || pairs.some(([a, b]) => a === null || b === null)) return null;
  return fileChange(
    path,
    "modified",
    pairs.flatMap(([a, b]) => hunksOf(a!, b!)),
  );
}
