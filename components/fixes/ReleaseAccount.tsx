"use client";

import { useState } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { AccountHold } from "@/lib/api/limits.ts";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { keys } from "@/lib/queries/keys.ts";
import { usePermissions } from "@/lib/queries/permissions.ts";

/**
 * A used-up account's hold ended by a person (docs/limits.md#the-hold): Resume now sends the held turns at once
 * (the window may still be used up, and the API then holds them again); Cancel held turns drops them after a question.
 * POST /api/accounts/{account}/release, the operator's and the held teams' leads'; others are told who may.
 */
export function ReleaseAccount({ team, hold }: { team: string; hold: AccountHold }) {
  const qc = useQueryClient();
  const { may, who } = usePermissions(team);
  const [asking, setAsking] = useState(false);
  const release = useMutation({
    mutationFn: (cancel: boolean) => apiCall(api.limits.release, { account: hold.account, cancel }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
  if (may("account.release") === false) {
    return <p className="muted fix">Only {who("account.release")} may resume or cancel its held turns before the reset.</p>;
  }
  const held = hold.held.length === 1 ? "1 session" : `${hold.held.length} sessions`;
  return (
    <span className="fix" data-testid={`release-${hold.account}`}>
      {asking ? (
        <>
          <span>Cancel the waiting turns of {held}?</span>
          <button type="button" className="small danger" disabled={release.isPending} onClick={() => release.mutate(true)}>
            Yes, cancel them
          </button>
          <button type="button" className="small" onClick={() => setAsking(false)}>
            No
          </button>
        </>
      ) : (
        <>
          <button type="button" className="small primary" disabled={release.isPending} onClick={() => release.mutate(false)}>
            {release.isPending ? "Resuming…" : "Resume now"}
          </button>
          <button type="button" className="small" disabled={release.isPending} onClick={() => setAsking(true)}>
            Cancel held turns
          </button>
        </>
      )}
      {release.isSuccess && (
        <span className="muted" role="status">
          {release.variables ? "cancelled" : "resumed"}: {release.data.released.join(", ") || "no session was held"}
        </span>
      )}
      {release.error && (
        <span className="form-error" role="alert">
          {release.error.message}
        </span>
      )}
    </span>
  );
}
