"use client";

import { useState, type FormEvent } from "react";
import { submitsOnCtrlEnter } from "@/lib/ctrl-enter.ts";
import { ENDED_STATUSES, type SessionStatus } from "@/lib/api/sessions.ts";
import { useSend } from "@/lib/queries/sessions.ts";
import { statusLabel } from "../ui/StatusBadge.tsx";

const WAITS = ["busy", "waiting_permission", "paused"];

/**
 * A message to the session: queued at once (the transcript shows the turn as it runs); a
 * stopped session is resumed first. Ctrl+Enter or Cmd+Enter sends.
 */
export function SendBox({ team, name, status }: { team: string; name: string; status: string }) {
  const send = useSend(team, name);
  const [text, setText] = useState("");
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || send.isPending) return;
    send.mutate(text, { onSuccess: () => setText("") });
  };
  const queuedNote = WAITS.includes(status)
    ? `The session is ${statusLabel(status)}: the message waits its turn.`
    : ENDED_STATUSES.includes(status as SessionStatus)
      ? `The session is ${status}: sending resumes it first.`
      : null;
  return (
    <form className="send-box" onSubmit={submit} aria-label="send a message">
      <label className="field">
        <span>Message</span>
        <textarea
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={submitsOnCtrlEnter}
          aria-invalid={send.error ? true : undefined}
          placeholder="Ctrl+Enter (⌘+Enter) sends"
          data-testid="send-text"
        />
        {send.error ? (
          <span className="error" role="alert">
            {send.error.message}
          </span>
        ) : (
          queuedNote && <span className="hint">{queuedNote}</span>
        )}
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={!text.trim() || send.isPending}>
          {send.isPending ? "Sending…" : "Send"}
        </button>
      </div>
    </form>
  );
}
