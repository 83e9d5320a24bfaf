"use client";

import Link from "next/link";
import { useRef, useState, type FormEvent } from "react";
import { issuesAt, issuesOf } from "@/lib/field-issues.ts";
import { submitsOnCtrlEnter } from "@/lib/ctrl-enter.ts";
import { useFork } from "@/lib/queries/sessions.ts";

/** Fork: a new session from this one's conversation; asks for its name and an optional first message. `why`: why it is disabled, when not for want of a turn. */
export function ForkButton({ team, name, disabled, why }: { team: string; name: string; disabled: boolean; why?: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const fork = useFork(team, name);
  const [newName, setNewName] = useState(`${name}-fork`);
  const [prompt, setPrompt] = useState("");
  const issues = issuesOf(fork.error);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    fork.mutate({ newName: newName.trim(), ...(prompt.trim() ? { prompt } : {}) }, { onSuccess: () => dialog.current?.close() });
  };
  return (
    <>
      <button
        type="button"
        disabled={disabled}
        onClick={() => (fork.reset(), dialog.current?.showModal())}
        title={disabled ? (why ?? "needs a finished turn to fork from") : undefined}
      >
        Fork…
      </button>
      {fork.data && (
        <span className="muted">
          forked: <Link href={`/sessions/${encodeURIComponent(fork.data.name)}`}>{fork.data.name}</Link>
        </span>
      )}
      <dialog ref={dialog} aria-label={`fork ${name}`}>
        <form onSubmit={submit}>
          <h3>Fork {name}</h3>
          <label className="field">
            <span>New session name</span>
            <input value={newName} onChange={(e) => setNewName(e.target.value)} aria-invalid={issuesAt(issues, "newName").length > 0 || undefined} required />
            {issuesAt(issues, "newName").map((i) => (
              <span key={i.message} className="error">
                {i.message}
              </span>
            ))}
          </label>
          <label className="field">
            <span>First message (optional)</span>
            <textarea
              rows={3}
              value={prompt}
              onChange={(e) => setPrompt(e.target.value)}
              onKeyDown={submitsOnCtrlEnter}
              placeholder="Ctrl+Enter (⌘+Enter) forks"
            />
          </label>
          {fork.error && (
            <p className="form-error" role="alert">
              {fork.error.message}
            </p>
          )}
          <div className="row">
            <button type="submit" className="primary" disabled={fork.isPending || !newName.trim()}>
              Fork
            </button>
            <button type="button" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
