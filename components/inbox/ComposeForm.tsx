"use client";

import { useState } from "react";
import { submitsOnCtrlEnter } from "@/lib/ctrl-enter.ts";
import { useBroadcast, useSendMessage } from "@/lib/queries/chat.ts";

export const EVERYONE = "*";

/** A new message from the operator: to one roster member, or to everyone on it as a broadcast. */
export function ComposeForm({ team, members, to, onTo }: { team: string; members: string[]; to: string; onTo: (to: string) => void }) {
  const [text, setText] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const send = useSendMessage(team);
  const broadcast = useBroadcast(team);
  const active = to === EVERYONE ? broadcast : send;
  const error = send.error ?? broadcast.error;
  const done = () => {
    setSent(to === EVERYONE ? "Broadcast sent." : `Sent to ${to}.`);
    setText("");
  };
  return (
    <form
      className="compose"
      aria-label="send a message"
      onSubmit={(e) => {
        e.preventDefault();
        setSent(null);
        send.reset();
        broadcast.reset();
        if (to === EVERYONE) broadcast.mutate({ message: text }, { onSuccess: done });
        else send.mutate({ to, message: text }, { onSuccess: done });
      }}
    >
      <label className="field">
        <span>To</span>
        <select aria-label="recipient" value={to} onChange={(e) => onTo(e.target.value)}>
          <option value="">choose a member…</option>
          {members.map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
          <option value={EVERYONE}>everyone on the roster (broadcast)</option>
        </select>
      </label>
      <label className="field">
        <span>Message</span>
        <textarea
          aria-label="message"
          rows={3}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={submitsOnCtrlEnter}
          placeholder="Ctrl+Enter (⌘+Enter) sends"
          aria-invalid={error ? true : undefined}
        />
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={!to || text.trim() === "" || active.isPending}>
          {active.isPending ? "Sending…" : to === EVERYONE ? "Broadcast" : "Send"}
        </button>
        {sent && (
          <span className="muted" role="status">
            {sent}
          </span>
        )}
        {error && (
          <span className="form-error" role="alert">
            {error.message}
          </span>
        )}
      </div>
    </form>
  );
}
