/** The approvals queue: the team's permission requests, and answering several at once (keys in ./keys.ts). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApprovalStatus } from "../api/sessions.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useApprovals = (team: string, status?: ApprovalStatus) =>
  useQuery({ queryKey: [...keys.approvals(team), status ?? "all"], queryFn: () => apiCall(api.sessions.approvals, { team, status, limit: 200 }) });

export function useDecideMany(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { ids: number[]; decision: "allow" | "deny"; note?: string }) => apiCall(api.sessions.decideMany, { team, ...body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
}
