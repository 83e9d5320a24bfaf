"use client";

import { useState } from "react";
import { MERGE_MODES } from "@/lib/api/worktrees.ts";
import type { SessionView } from "@/lib/api/sessions.ts";
import { ApiError } from "@/lib/browser-api.ts";
import { useDiscard, useMerge } from "@/lib/queries/worktrees.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";

type Mode = (typeof MERGE_MODES)[number];

const MODE_HINT: Record<Mode, string> = {
  merge: "a merge commit; the session's branch is its second parent",
  squash: "one new commit on the base branch",
};

/** Paths an error names: the conflicting files of a merge, the uncommitted ones of a dirty base. */
function filesOf(error: Error): { title: string; paths: string[] } | null {
  if (!(error instanceof ApiError)) return null;
  const { conflicts, files } = error.details as { conflicts?: { path: string }[]; files?: string[] };
  if (Array.isArray(conflicts)) return { title: "Conflicts in", paths: conflicts.map((c) => c.path) };
  if (Array.isArray(files)) return { title: "Uncommitted in the base's work tree", paths: files };
  return null;
}

/** The hub's refusal as it said it, with the files it names one per line. */
function HubRefusal({ error }: { error: Error }) {
  const files = filesOf(error);
  return (
    <div className="merge-error" role="alert" data-testid="merge-error">
      <p className="error">{error.message}</p>
      {files && (
        <>
          <p className="muted">{files.title}:</p>
          <ul className="plain file-paths">
            {files.paths.map((p) => (
              <li key={p}>
                <code>{p}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Merge into the base branch or discard (docs/worktrees.md#merge): Check is the hub's dry run (conflicts file by
 * file, the prefilled message), Merge writes with the chosen mode and message. Who may do it is the hub's call:
 * the session view does not say, so a refusal is shown as the hub words it.
 */
export function MergePanel({ session }: { session: SessionView }) {
  const base = session.worktree!.baseBranch;
  const [mode, setMode] = useState<Mode>("merge");
  const [message, setMessage] = useState("");
  // The message follows each check until the person edits it; then it is theirs.
  const [edited, setEdited] = useState(false);
  const check = useMerge(session.team, session.name);
  const merge = useMerge(session.team, session.name);
  const discard = useDiscard(session.team, session.name);
  const busy = check.isPending || merge.isPending || discard.isPending;
  const checked = check.data;
  const merged = merge.data;

  // Each action's answer replaces the last one's: an old refusal next to a new one would read as two problems.
  const runCheck = () => {
    merge.reset();
    discard.reset();
    check.mutate({ mode, dryRun: true }, { onSuccess: (r) => !edited && setMessage(r.message) });
  };
  const chooseMode = (m: Mode) => {
    setMode(m);
    // The prefilled message and the check belong to a mode.
    check.reset();
    if (!edited) setMessage("");
  };

  return (
    <section className="merge-panel" aria-label="Merge or discard" data-testid="merge-panel">
      <h3>Merge into {base ? <code>{base}</code> : "the base branch"}</h3>
      <div className="row merge-controls">
        <div className="segmented" role="radiogroup" aria-label="Merge mode">
          {MERGE_MODES.map((m) => (
            <button key={m} type="button" role="radio" aria-checked={mode === m} aria-pressed={mode === m} title={MODE_HINT[m]} onClick={() => chooseMode(m)}>
              {m}
            </button>
          ))}
        </div>
        <button type="button" onClick={runCheck} disabled={busy}>
          {check.isPending ? "Checking…" : "Check"}
        </button>
        <button
          type="button"
          className="primary"
          disabled={busy || checked?.outcome === "conflicts"}
          onClick={() => {
            discard.reset();
            merge.mutate({ mode, ...(message.trim() ? { message } : {}) }, { onSuccess: () => check.reset() });
          }}
        >
          {merge.isPending ? "Merging…" : "Merge"}
        </button>
        <ConfirmButton
          label="Discard"
          danger
          disabled={busy}
          question={
            <>
              Discard <code>{session.worktree!.branch}</code> and its work tree? The session&apos;s code changes are deleted for good.
            </>
          }
          onConfirm={() => {
            check.reset();
            merge.reset();
            discard.mutate();
          }}
        />
      </div>
      <p className="hint">
        {mode}: {MODE_HINT[mode]}.
      </p>
      {checked && (
        <div role="status" data-testid="merge-check" data-outcome={checked.outcome}>
          {checked.outcome === "clean" ? (
            <p>
              <strong className="ok">Clean</strong>: {checked.files} file{checked.files === 1 ? "" : "s"} merge into <code>{checked.baseBranch}</code> without
              conflicts.
            </p>
          ) : (
            <>
              <p>
                <strong className="error">
                  {checked.conflicts.length} conflict{checked.conflicts.length === 1 ? "" : "s"}
                </strong>{" "}
                with <code>{checked.baseBranch}</code>: the session must resolve {checked.conflicts.length === 1 ? "it" : "them"} before a merge.
              </p>
              <ul className="plain file-paths" aria-label="Conflicting files">
                {checked.conflicts.map((c) => (
                  <li key={c.path}>
                    <span className="change-mark conflict">C</span> <code>{c.path}</code>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <label className="field">
        <span>Commit message</span>
        <textarea
          rows={checked || message ? 6 : 2}
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            setEdited(e.target.value !== "");
          }}
          placeholder="Left empty, the hub writes it from the session's contract and last summary; Check shows it here."
          data-testid="merge-message"
        />
      </label>
      {merged && (
        <p role="status" data-testid="merge-result">
          <strong className="ok">Merged</strong> into <code>{merged.baseBranch}</code> ({merged.mode}): commit{" "}
          <code title={merged.commit ?? ""}>{merged.commit?.slice(0, 12)}</code>, {merged.files} file{merged.files === 1 ? "" : "s"}
          {merged.branchDeleted ? "; the branch was deleted (its session was gone)" : ""}.
        </p>
      )}
      {[check.error, merge.error, discard.error].map((e, i) => e && <HubRefusal key={i} error={e} />)}
    </section>
  );
}
