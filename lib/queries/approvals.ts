/** The approvals queue: the team's permission requests, and answering several at once (keys in ./keys.ts). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApprovalStatus } from "../api/sessions.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

/** A page of the queue: the newest this many are listed. */
const APPROVALS_PAGE = 200;

/** The team's newest approvals, of one status or all. */
export const useApprovals = (team: string, status?: ApprovalStatus) =>
  useQuery({
    queryKey: [...keys.approvals(team), status ?? "all"],
    queryFn: () => apiCall(api.sessions.approvals, { team, status, limit: APPROVALS_PAGE }),
  });

/** How many are waiting, past the page: the nav's badge and the queue's title. */
export const usePendingCount = (team: string) =>
  useQuery({ queryKey: [...keys.approvals(team), "pending", "count"], queryFn: () => apiCall(api.sessions.approvalCount, { team, status: "pending" }) });

export function useDecideMany(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; decision: "allow" | "deny"; note?: string }) => apiCall(api.sessions.decideMany, { team, ...body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
}

/** One answer, from wherever the request is shown (toast, needs-attention, the queue, the session page); `forSession` remembers it. */
export type Decision = { session: string; approvalId: number; decision: "allow" | "deny"; note?: string; forSession?: boolean };

export function useDecideOne(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ session, approvalId, decision, note, forSession }: Decision) =>
      apiCall(api.sessions.decide, { name: session, approvalId, decision, ...(note ? { note } : {}), ...(forSession ? { forSession } : {}) }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
}
