/** Queries and changes of the settings page (keys in ./keys.ts). Tokens are hub-wide, settings per team. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import type { TeamSettings } from "../api/team-settings.ts";
import type { InputOf } from "../api/endpoint.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type { TeamSettings };

export const useHealth = () => useQuery({ queryKey: [...keys.hub(), "health"], queryFn: () => apiCall(api.health.get, {}) });

/** The hubs sharing the database (operators only); heartbeats move on without events, so it is refetched on a timer. */
export const useHubs = () => useQuery({ queryKey: keys.hubs(), queryFn: () => apiCall(api.hubs.list, {}), retry: false, refetchInterval: 5000 });

/** Operators only; the hub refuses anyone else. */
export const useOperatorToken = () => useQuery({ queryKey: keys.operatorToken(), queryFn: () => apiCall(api.auth.operatorToken, {}), retry: false });

export const useTokens = () => useQuery({ queryKey: keys.tokens(), queryFn: () => apiCall(api.auth.list, {}), retry: false });

export const useIssueToken = () => useMutation({ mutationFn: (b: InputOf<typeof api.auth.createToken>) => apiCall(api.auth.createToken, b) });

export const useRevokeToken = () => useMutation({ mutationFn: (b: InputOf<typeof api.auth.revoke>) => apiCall(api.auth.revoke, b) });

export const useTeamSettings = (team: string) => useQuery({ queryKey: keys.settings(team), queryFn: () => apiCall(api.teams.settings, { team }) });

/** The answer is the team's settings now; the form shows them at once instead of the old ones until /ws catches up. */
export function useUpdateTeamSettings(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (changes: Partial<TeamSettings>) => apiCall(api.teams.updateSettings, { ...changes, team }),
    onSuccess: (now) => qc.setQueryData(keys.settings(team), now),
  });
}
