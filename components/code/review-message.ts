/**
 * The words a line comment reaches the session in (docs/worktrees.md#the-changes-tab). The agent gets only this
 * text, so it names the file, the side and line, and quotes the line as the diff shows it, marker included.
 */
import type { LineRef } from "./FileDiff.tsx";

/** A quoted line longer than this is cut: the path and line number already say where, the quote only confirms it. */
const QUOTE_MAX = 200;

/** The line in a Markdown code span, with a fence the text cannot close early. */
export function quoteLine(ref: Pick<LineRef, "marker" | "text">): string {
  const text = ref.text.length > QUOTE_MAX ? `${ref.text.slice(0, QUOTE_MAX)}…` : ref.text;
  const line = `${ref.marker} ${text}`;
  const longest = Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(longest + 1);
  return longest > 0 ? `${fence} ${line} ${fence}` : `${fence}${line}${fence}`;
}

/** Where: the new file's line for added and kept lines; a removed line exists only in the base's version. */
export function placeOf(ref: Pick<LineRef, "path" | "side" | "line" | "marker" | "text">): string {
  const where = ref.side === "old" ? `${ref.path} line ${ref.line} of the base version (a removed line)` : `${ref.path} line ${ref.line}`;
  return `${where} (${quoteLine(ref)})`;
}

export type ReviewComment = { ref: LineRef; text: string };

/** One comment as one message. */
export const commentMessage = (c: ReviewComment) => `Review comment on ${placeOf(c.ref)}:\n${c.text.trim()}`;

/** Several comments as one message, numbered in the order they were written. */
export function reviewMessage(comments: ReviewComment[]): string {
  if (comments.length === 1) return commentMessage(comments[0]);
  const items = comments.map((c, i) => `${i + 1}. On ${placeOf(c.ref)}:\n${c.text.trim()}`);
  return `Review of your changes, ${comments.length} comments:\n\n${items.join("\n\n")}`;
}
