"use client";

import { useCallback, useMemo, useState, type ReactNode } from "react";
import { useSend } from "@/lib/queries/sessions.ts";
import type { LineRef } from "./FileDiff.tsx";
import { commentMessage, placeOf, reviewMessage } from "./review-message.ts";

/**
 * draft: being written under its line; pending: kept for the review; sending: on its way; sent: the session has it
 * (the transcript keeps it as the message; here it stays until the page reloads).
 */
type Status = "draft" | "pending" | "sending" | "sent";
type Comment = { id: number; ref: LineRef; text: string; status: Status; error: string | null };

const NO_WIDGETS: Record<string, ReactNode> = {};
const lineLabel = (ref: LineRef) => `${ref.path} line ${ref.line}${ref.side === "old" ? " (base)" : ""}`;

function CommentRow({
  c,
  update,
  remove,
  send,
}: {
  c: Comment;
  update: (id: number, patch: Partial<Comment>) => void;
  remove: (id: number) => void;
  send: (ids: number[]) => void;
}) {
  const label = `Comment on ${lineLabel(c.ref)}`;
  if (c.status !== "draft") {
    return (
      <div className={`line-comment ${c.status}`} data-testid="line-comment" data-status={c.status}>
        <p className="line-comment-text">{c.text}</p>
        <div className="row">
          <span className="muted">{c.status === "sent" ? "Sent to the session" : c.status === "sending" ? "Sending…" : "In the review (not sent yet)"}</span>
          {c.status === "pending" && (
            <>
              <button type="button" onClick={() => update(c.id, { status: "draft" })}>
                Edit
              </button>
              <button type="button" onClick={() => remove(c.id)}>
                Remove
              </button>
            </>
          )}
        </div>
        {c.error && (
          <p className="error" role="alert">
            Not sent: {c.error}
          </p>
        )}
      </div>
    );
  }
  const empty = c.text.trim() === "";
  return (
    <form
      className="line-comment draft"
      aria-label={label}
      data-testid="line-comment"
      data-status="draft"
      onSubmit={(e) => {
        e.preventDefault();
        if (!empty) send([c.id]);
      }}
    >
      <label className="field">
        <span>{label}</span>
        <textarea
          rows={3}
          autoFocus
          value={c.text}
          onChange={(e) => update(c.id, { text: e.target.value, error: null })}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey) && !empty) send([c.id]);
            if (e.key === "Escape") remove(c.id);
          }}
          placeholder={`What should the session do about ${placeOf(c.ref)}?`}
          aria-invalid={c.error ? true : undefined}
        />
        {c.error && (
          <span className="error" role="alert">
            Not sent: {c.error}
          </span>
        )}
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={empty}>
          Send to session
        </button>
        <button type="button" disabled={empty} onClick={() => update(c.id, { status: "pending", error: null })}>
          Add to review
        </button>
        <button type="button" onClick={() => remove(c.id)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * Review comments on a diff's lines: `onLine` opens a form under the clicked line, `widgetsFor` puts the comments
 * under their lines (FileDiffs' props), `bar` sends the comments kept for the review as one message.
 */
export function useLineComments(
  team: string,
  name: string,
): { onLine: (ref: LineRef) => void; widgetsFor: (path: string) => Record<string, ReactNode>; bar: ReactNode } {
  const sendMessage = useSend(team, name);
  const [comments, setComments] = useState<Comment[]>([]);
  const [reviewError, setReviewError] = useState<string | null>(null);

  const update = useCallback((id: number, patch: Partial<Comment>) => setComments((cs) => cs.map((c) => (c.id === id ? { ...c, ...patch } : c))), []);
  const remove = useCallback((id: number) => setComments((cs) => cs.filter((c) => c.id !== id)), []);
  const onLine = useCallback(
    (ref: LineRef) =>
      setComments((cs) =>
        // One form per line at a time: a second click on the same line keeps the draft there.
        cs.some((c) => c.status === "draft" && c.ref.path === ref.path && c.ref.key === ref.key)
          ? cs
          : [...cs, { id: Math.max(0, ...cs.map((c) => c.id)) + 1, ref, text: "", status: "draft", error: null }],
      ),
    [],
  );

  const { mutateAsync } = sendMessage;
  const send = useCallback(
    (ids: number[]) => {
      const chosen = comments.filter((c) => ids.includes(c.id));
      if (chosen.length === 0) return;
      const restore = new Map(chosen.map((c) => [c.id, c.status]));
      setComments((cs) => cs.map((c) => (restore.has(c.id) ? { ...c, status: "sending", error: null } : c)));
      setReviewError(null);
      mutateAsync(chosen.length === 1 ? commentMessage(chosen[0]) : reviewMessage(chosen)).then(
        () => setComments((cs) => cs.map((c) => (restore.has(c.id) ? { ...c, status: "sent" } : c))),
        (e: Error) => {
          // Back to where each was, with the hub's reason: nothing is lost, it can be sent again.
          setComments((cs) => cs.map((c) => (restore.has(c.id) ? { ...c, status: restore.get(c.id)!, error: e.message } : c)));
          if (chosen.length > 1) setReviewError(e.message);
        },
      );
    },
    [comments, mutateAsync],
  );

  // One stable object per file, so only the files whose comments changed render again.
  const byPath = useMemo(() => {
    const lines = new Map<string, Map<string, Comment[]>>();
    for (const c of comments) {
      const file = lines.get(c.ref.path) ?? new Map<string, Comment[]>();
      file.set(c.ref.key, [...(file.get(c.ref.key) ?? []), c]);
      lines.set(c.ref.path, file);
    }
    return new Map(
      [...lines].map(([path, file]) => [
        path,
        Object.fromEntries(
          [...file].map(([key, cs]) => [
            key,
            <div key={key} className="line-comments">
              {cs.map((c) => (
                <CommentRow key={c.id} c={c} update={update} remove={remove} send={send} />
              ))}
            </div>,
          ]),
        ),
      ]),
    );
  }, [comments, update, remove, send]);
  const widgetsFor = useCallback((path: string) => byPath.get(path) ?? NO_WIDGETS, [byPath]);

  const pending = comments.filter((c) => c.status === "pending");
  const bar =
    pending.length === 0 ? null : (
      <div className="review-bar" role="region" aria-label="Review">
        <span>
          {pending.length} comment{pending.length === 1 ? "" : "s"} in the review
        </span>
        <button type="button" className="primary" disabled={sendMessage.isPending} onClick={() => send(pending.map((c) => c.id))}>
          Send review ({pending.length})
        </button>
        {reviewError && (
          <span className="error" role="alert">
            Not sent: {reviewError}
          </span>
        )}
      </div>
    );
  return { onLine, widgetsFor, bar };
}
