"use client";

import { useState } from "react";
import { sessionRule } from "@/lib/approval-rule.ts";
import { clock } from "@/lib/format.ts";
import type { ApprovalView } from "@/lib/api/sessions.ts";
import { useDecide } from "@/lib/queries/sessions.ts";
import { JsonView } from "../ui/JsonView.tsx";
import { summarizeInput } from "./transcript-model.ts";
import { useNow } from "./useNow.ts";

function ApprovalCard({ team, approval }: { team: string; approval: ApprovalView }) {
  const decide = useDecide(team, approval.session);
  const [note, setNote] = useState("");
  const now = useNow();
  const act = (decision: "allow" | "deny", forSession = false) =>
    decide.mutate({ approvalId: approval.id, decision, note: note.trim() || undefined, forSession });
  const summary = summarizeInput(approval.input);
  const remember = sessionRule(approval.toolName, approval.input);
  return (
    <section
      className="approval"
      aria-label={`permission request ${approval.id}: ${approval.toolName}`}
      data-testid={`approval-${approval.id}`}
      data-alert-key={`approval:${approval.id}`}
    >
      <div className="row">
        <strong>{approval.toolName}</strong>
        {summary && <code className="approval-what">{summary}</code>}
        <span className="spacer" />
        {/* The request's own deadline: the turn's time limit stands still while it waits (docs/sessions.md). */}
        <span className="muted" title={new Date(approval.expiresAt).toLocaleString()} data-testid="approval-deadline">
          denied automatically in {clock(approval.expiresAt.getTime() - now)}
        </span>
      </div>
      <p className="muted">{approval.reason}</p>
      <details>
        <summary>Full input</summary>
        <JsonView value={approval.input} label={`input of ${approval.toolName}`} />
      </details>
      <div className="row">
        <input
          aria-label={`note for request ${approval.id}`}
          placeholder="note (optional, sent with the answer)"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          maxLength={2000}
          className="grow"
        />
        <button type="button" className="primary" disabled={decide.isPending} onClick={() => act("allow")}>
          Allow
        </button>
        <button
          type="button"
          disabled={decide.isPending || "why" in remember}
          onClick={() => act("allow", true)}
          title={"why" in remember ? `Only once: ${remember.why}.` : `allow it now, and ${remember.rule} from now on without asking`}
        >
          Allow for this session
        </button>
        <button type="button" className="danger" disabled={decide.isPending} onClick={() => act("deny")}>
          Deny
        </button>
      </div>
      {decide.error && (
        <p className="form-error" role="alert">
          {decide.error.message}
        </p>
      )}
    </section>
  );
}

/** The session's pending permission requests, each waiting for Allow or Deny from a person. */
export function ApprovalCards({ team, approvals }: { team: string; approvals: ApprovalView[] }) {
  if (approvals.length === 0) return null;
  return (
    <div className="stack" role="region" aria-label="pending permission requests" data-testid="approvals">
      {approvals.map((a) => (
        <ApprovalCard key={a.id} team={team} approval={a} />
      ))}
    </div>
  );
}
