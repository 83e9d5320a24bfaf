/** Queries and changes of the settings page (keys in ./keys.ts). Tokens are hub-wide, settings per team. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { TeamSettings } from "../api/team-settings.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall, apiGet, apiSend } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type { TeamSettings };
export type TokenRow = { principal: string; kind: string; label: string; createdAt: string };
export type IssuedToken = { principal: string; kind: string; token: string; label: string };

export const useHealth = () => useQuery({ queryKey: [...keys.hub(), "health"], queryFn: () => apiCall(api.health.get, {}) });

/** Operators only; the hub refuses anyone else. */
export const useOperatorToken = () =>
  useQuery({ queryKey: keys.operatorToken(), queryFn: () => apiGet<{ token: string; file: string }>("/api/operator-token"), retry: false });

export const useTokens = () => useQuery({ queryKey: keys.tokens(), queryFn: () => apiGet<TokenRow[]>("/api/tokens"), retry: false });

export const useIssueToken = () =>
  useMutation({ mutationFn: (b: { name: string; kind: "member" | "agent"; label?: string }) => apiSend<IssuedToken>("POST", "/api/tokens", b) });

export const useRevokeToken = () =>
  useMutation({
    mutationFn: (b: { name: string; label?: string }) =>
      apiSend<{ revoked: number }>("DELETE", `/api/tokens/${encodeURIComponent(b.name)}`, {}, { label: b.label }),
  });

export const useTeamSettings = (team: string) =>
  useQuery({ queryKey: keys.settings(team), queryFn: () => apiGet<TeamSettings>(`/api/teams/${encodeURIComponent(team)}/settings`) });

/** The answer is the team's settings now; the form shows them at once instead of the old ones until /ws catches up. */
export function useUpdateTeamSettings(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<TeamSettings>) => apiSend<TeamSettings>("PATCH", `/api/teams/${encodeURIComponent(team)}/settings`, changes),
    onSuccess: (now) => qc.setQueryData(keys.settings(team), now),
  });
}
