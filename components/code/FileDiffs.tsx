"use client";

import { memo, useState, type ReactNode } from "react";
import type { ViewType } from "react-diff-view";
import type { FileChange } from "@/lib/api/worktrees.ts";
import { FileDiff, type LineRef } from "./FileDiff.tsx";
import { rowsOf } from "./hunks.ts";

/**
 * Files open at first: in order, while they number at most OPEN_FILES and their rows add up to at most OPEN_ROWS;
 * the rest open on a click. A diff of 1,000 files renders its list at once and its first screens of code, instead of
 * every line: each open file is a table of its own, so the count matters as much as the rows
 * (docs/worktrees.md#the-changes-tab; bench/changes-render.bench.ts).
 */
export const OPEN_ROWS = 3_000;
export const OPEN_FILES = 100;

function openFirst(files: FileChange[]): boolean[] {
  const open: boolean[] = [];
  files.reduce((rows, f, i) => {
    const total = rows + rowsOf(f);
    open.push(i < OPEN_FILES && total <= OPEN_ROWS);
    return total;
  }, 0);
  return open;
}

const MARK: Record<FileChange["change"], string> = { added: "A", modified: "M", deleted: "D", type_changed: "T" };

export const fileAnchor = (path: string) => `file-${encodeURIComponent(path)}`;

/** +n −m, the counts git gives. */
export function Counts({ additions, deletions }: { additions: number; deletions: number }) {
  return (
    <span className="diff-counts">
      <span className="plus">+{additions}</span> <span className="minus">−{deletions}</span>
    </span>
  );
}

/** Memoized: a comment on one file re-renders that file, not the thousand others (pass a stable `onLine`). */
const FileSection = memo(function FileSection({
  file,
  open: initiallyOpen,
  viewType,
  onLine,
  widgets,
}: {
  file: FileChange;
  open: boolean;
  viewType: ViewType;
  onLine?: (ref: LineRef) => void;
  widgets?: Record<string, ReactNode>;
}) {
  const [open, setOpen] = useState(initiallyOpen);
  return (
    <details
      className={`code-file ${file.change}`}
      id={fileAnchor(file.path)}
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
      data-testid="code-file"
    >
      <summary>
        <span className={`change-mark ${file.change}`} title={file.change.replace("_", " ")}>
          {MARK[file.change]}
        </span>{" "}
        <code className="code-path">{file.path}</code> <Counts additions={file.additions} deletions={file.deletions} />
      </summary>
      {/* Closed files render no rows: opening one renders it then. */}
      {open && <FileDiff file={file} viewType={viewType} onLine={onLine} widgets={widgets} />}
    </details>
  );
});

/**
 * A diff of many files with react-diff-view: a file list with +/− and each file's hunks, unified or split.
 * `onLine` makes line numbers clickable (a review comment); `widgetsFor` puts rows under lines (the comments).
 */
export function FileDiffs({
  files,
  onLine,
  widgetsFor,
  label,
}: {
  files: FileChange[];
  onLine?: (ref: LineRef) => void;
  widgetsFor?: (path: string) => Record<string, ReactNode>;
  label: string;
}) {
  const [viewType, setViewType] = useState<ViewType>("unified");
  if (files.length === 0) return <p className="empty">No changes.</p>;
  const openAtFirst = openFirst(files);
  return (
    <div className="code-diffs" aria-label={label}>
      <div className="code-toolbar">
        <span className="muted">
          {files.length} file{files.length === 1 ? "" : "s"}
        </span>
        <div className="segmented" role="group" aria-label="Diff layout">
          {(["unified", "split"] as const).map((v) => (
            <button key={v} type="button" aria-pressed={viewType === v} onClick={() => setViewType(v)}>
              {v}
            </button>
          ))}
        </div>
      </div>
      <ul className="code-file-list plain" aria-label="Changed files">
        {files.map((f) => (
          <li key={f.path}>
            <span className={`change-mark ${f.change}`}>{MARK[f.change]}</span> <a href={`#${fileAnchor(f.path)}`}>{f.path}</a>{" "}
            <Counts additions={f.additions} deletions={f.deletions} />
          </li>
        ))}
      </ul>
      {files.map((f, i) => (
        <FileSection key={f.path} file={f} open={openAtFirst[i]} viewType={viewType} onLine={onLine} widgets={widgetsFor?.(f.path)} />
      ))}
    </div>
  );
}
