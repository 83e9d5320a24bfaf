"use client";

import { useId, useState } from "react";
import { sessionRule } from "@/lib/approval-rule.ts";
import { useDecideOne } from "@/lib/queries/approvals.ts";

/**
 * Allow and Deny for one waiting permission request, wherever it is shown: the alert toast, a needs-attention row, a
 * row of the approvals queue (the session page has its card). "⋯" opens a note sent with the answer and "Allow for this
 * session", which also allows the same command (or file) without asking for the rest of the session
 * (docs/sessions.md#allow-for-this-session). The same call as the card's: POST /api/sessions/{name}/approvals/{id}.
 */
export function DecideButtons({
  team,
  session,
  approvalId,
  toolName,
  input,
}: {
  team: string;
  session: string;
  approvalId: number;
  toolName: string;
  /** What the call would do; `{}` when hidden from the caller. */
  input: Record<string, unknown>;
}) {
  const decide = useDecideOne(team);
  const remember = sessionRule(toolName, input);
  const [more, setMore] = useState(false);
  const [note, setNote] = useState("");
  const moreId = useId();
  const act = (decision: "allow" | "deny", forSession = false) =>
    decide.mutate({ session, approvalId, decision, note: note.trim() || undefined, forSession }, { onSuccess: () => setMore(false) });
  const busy = decide.isPending || decide.isSuccess;
  return (
    <div className="decide" role="group" aria-label={`decide request ${approvalId} (${toolName} for ${session})`}>
      <div className="decide-buttons">
        <button type="button" className="primary small" disabled={busy} onClick={() => act("allow")}>
          Allow
        </button>
        <button type="button" className="danger small" disabled={busy} onClick={() => act("deny")}>
          Deny
        </button>
        <button
          type="button"
          className="ghost small"
          aria-expanded={more}
          aria-controls={moreId}
          aria-label={`more answers for request ${approvalId}: a note, or allow for this session`}
          title="a note, or allow for this session"
          onClick={() => setMore(!more)}
        >
          ⋯
        </button>
      </div>
      {more && (
        <div className="decide-more" id={moreId}>
          <input
            aria-label={`note for request ${approvalId}`}
            placeholder="note (optional, sent with the answer)"
            value={note}
            onChange={(e) => setNote(e.target.value)}
            maxLength={2000}
            autoFocus
          />
          <button
            type="button"
            className="small"
            disabled={busy || "why" in remember}
            onClick={() => act("allow", true)}
            title={"why" in remember ? `Only once: ${remember.why}.` : `allow it now, and ${remember.rule} in ${session} from now on without asking`}
          >
            Allow for this session
          </button>
        </div>
      )}
      {decide.error && (
        <p className="form-error decide-error" role="alert" title={decide.error.message}>
          {decide.error.message}
        </p>
      )}
    </div>
  );
}
