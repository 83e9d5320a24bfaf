"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import type { VersionView } from "@/lib/api/artifacts.ts";
import { api } from "@/lib/api/endpoints/index.ts";
import type { StaleArtifact } from "@/lib/api/lineage.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { sendsOnCtrlEnter } from "@/lib/ctrl-enter.ts";
import { useSendMessage } from "@/lib/queries/chat.ts";
import { keys } from "@/lib/queries/keys.ts";
import { useRoster } from "@/lib/queries/roster.ts";
import { staleCauseText } from "@/lib/stale-reason.ts";

/**
 * Beside a stale artifact (docs/dashboard.md#a-fix-beside-every-problem): tell the member who published the stale
 * version why (a message, as the Inbox sends), or reopen the contract that produced it so its assignee runs it again
 * on the current inputs (POST /api/contracts/{id}/reopen, the assignee's, the assigner's, a lead's or the operator's).
 */
export function StaleFix({ team, stale, version }: { team: string; stale: StaleArtifact; version: VersionView }) {
  const qc = useQueryClient();
  const why = stale.reasons.map(staleCauseText).join("; ");
  const onRoster = (useRoster(team).data ?? []).some((m) => m.name === version.publisher);
  const [text, setText] = useState(`${stale.artifactId}@v${stale.version} is stale: ${why}. Please publish a new version from the current inputs.`);
  const [writing, setWriting] = useState(false);
  const send = useSendMessage(team);
  const reopen = useMutation({
    mutationFn: (id: string) =>
      apiCall(api.contracts.reopen, { team, id, reason: `its output ${stale.artifactId}@v${stale.version} is stale: ${why}`.slice(0, 2000) }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
  const tell = () => text.trim() && send.mutate({ to: version.publisher, message: text.trim() }, { onSuccess: () => setWriting(false) });
  return (
    <div className="fix stale-fix" data-testid="stale-fix">
      {onRoster && (
        <button type="button" className="small" aria-expanded={writing} onClick={() => setWriting(!writing)}>
          Tell {version.publisher}…
        </button>
      )}
      {version.contractId && (
        <button type="button" className="small" disabled={reopen.isPending} onClick={() => reopen.mutate(version.contractId!)}>
          Reopen {version.contractId}
        </button>
      )}
      {!onRoster && !version.contractId && (
        <span className="muted">Published by {version.publisher}, outside any contract: publish a new version to settle it.</span>
      )}
      {writing && (
        <div className="stale-message">
          <textarea
            rows={3}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={sendsOnCtrlEnter(tell)}
            aria-label={`message to ${version.publisher}`}
            autoFocus
          />
          <button type="button" className="small primary" disabled={send.isPending || !text.trim()} onClick={tell}>
            Send
          </button>
          <span className="hint">Ctrl+Enter (⌘+Enter) sends</span>
        </div>
      )}
      {send.isSuccess && !writing && (
        <span className="muted" role="status">
          told {version.publisher} (<Link href="/inbox">Inbox</Link>)
        </span>
      )}
      {reopen.isSuccess && (
        <span className="muted" role="status">
          {reopen.data.id} is {reopen.data.status} again
        </span>
      )}
      {(send.error ?? reopen.error) && (
        <span className="form-error" role="alert">
          {(send.error ?? reopen.error)!.message}
        </span>
      )}
    </div>
  );
}
