"use client";

import type { ReactNode } from "react";
import { Decoration, Diff, getChangeKey, Hunk, type ChangeData, type ViewType } from "react-diff-view";
import "react-diff-view/style/index.css";
import type { FileChange } from "@/lib/api/worktrees.ts";
import { diffTypeOf, lineOf, markerOf, toHunkData } from "./hunks.ts";

/** One line of one file, as a comment names it; `key` is react-diff-view's key of the change (for widgets). */
export type LineRef = { path: string; side: "old" | "new"; line: number; marker: "+" | "-" | " "; text: string; key: string };

/** One file's hunks with react-diff-view: each file of the Changes tab and compare view, and the transcript's Edit and Write calls. */
export function FileDiff({
  file,
  viewType = "unified",
  onLine,
  widgets,
}: {
  file: FileChange;
  viewType?: ViewType;
  onLine?: (ref: LineRef) => void;
  widgets?: Record<string, ReactNode>;
}) {
  if (file.binary) return <p className="empty">Binary file: no lines to show.</p>;
  if (file.hunks.length === 0) return <p className="empty">No line changes (mode or type only).</p>;
  const hunks = file.hunks.map(toHunkData);
  const click = onLine
    ? ({ change }: { change: ChangeData | null }) => {
        if (change) onLine({ path: file.path, ...lineOf(change), marker: markerOf(change), text: change.content, key: getChangeKey(change) });
      }
    : undefined;
  return (
    <>
      <Diff viewType={viewType} diffType={diffTypeOf(file)} hunks={hunks} widgets={widgets} gutterEvents={click ? { onClick: click } : undefined}>
        {(hs) =>
          hs.flatMap((h) => [
            <Decoration key={`d${h.content}${h.oldStart}`}>
              <span className="hunk-header">{h.content}</span>
            </Decoration>,
            <Hunk key={`h${h.content}${h.oldStart}`} hunk={h} />,
          ])
        }
      </Diff>
      {file.truncated && <p className="empty">The rest of this file&apos;s diff is not shown (over 5,000 lines); the counts are whole.</p>}
    </>
  );
}
