"use client";

import { useState } from "react";
import { submitsOnCtrlEnter } from "@/lib/ctrl-enter.ts";
import { useReply } from "@/lib/queries/chat.ts";

/** A reply to one message, as the operator; it goes to that message's sender. */
export function ReplyBox({ team, messageId, from }: { team: string; messageId: number; from: string }) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState("");
  const reply = useReply(team);
  if (!open) {
    return (
      <button type="button" className="small" onClick={() => setOpen(true)} aria-label={`reply to message ${messageId} from ${from}`}>
        {reply.isSuccess ? "Replied · reply again" : "Reply"}
      </button>
    );
  }
  return (
    <form
      className="reply-box"
      onSubmit={(e) => {
        e.preventDefault();
        const done = () => {
          setText("");
          setOpen(false);
        };
        reply.mutate({ messageId, message: text }, { onSuccess: done });
      }}
    >
      <textarea
        aria-label={`reply to ${from}`}
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        autoFocus
        aria-invalid={reply.isError || undefined}
        onKeyDown={submitsOnCtrlEnter}
        placeholder="Ctrl+Enter (⌘+Enter) sends"
      />
      <div className="row">
        <button type="submit" className="primary" disabled={reply.isPending || text.trim() === ""}>
          {reply.isPending ? "Sending…" : `Reply to ${from}`}
        </button>
        <button
          type="button"
          onClick={() => {
            setOpen(false);
            reply.reset();
          }}
        >
          Cancel
        </button>
        {reply.error && (
          <span className="form-error" role="alert">
            {reply.error.message}
          </span>
        )}
      </div>
    </form>
  );
}
