"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { keys } from "@/lib/queries/keys.ts";

/**
 * Retry beside a failed turn: its prompt again as a new turn (POST /api/sessions/{name}/retry, docs/sessions.md#retrying-a-failed-turn),
 * with what a send needs; a refusal says why under the button.
 */
export function RetryTurn({ team, name, label = "Retry" }: { team: string; name: string; label?: string }) {
  const qc = useQueryClient();
  const retry = useMutation({
    mutationFn: () => apiCall(api.sessions.retry, { name }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
  return (
    <span className="fix">
      <button type="button" className="small primary" disabled={retry.isPending} onClick={() => retry.mutate()} data-testid={`retry-${name}`}>
        {retry.isPending ? "Retrying…" : label}
      </button>
      {retry.isSuccess && (
        <span className="muted" role="status">
          sent again as turn {retry.data.interaction.n}
        </span>
      )}
      {retry.error && (
        <span className="form-error" role="alert">
          {retry.error.message}
        </span>
      )}
    </span>
  );
}
