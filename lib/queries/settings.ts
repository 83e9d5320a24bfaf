/** Queries and changes of the settings page (keys in ./keys.ts). Tokens are hub-wide, settings per team. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import type { TeamSettings } from "../api/team-settings.ts";
import type { InputOf } from "../api/endpoint.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type { TeamSettings };

export const useHealth = () => useQuery({ queryKey: [...keys.hub(), "health"], queryFn: () => apiCall(api.health.get, {}) });

/**
 * The hubs sharing the database (operators only); heartbeats move on without events, so Settings refetches it on a
 * timer. `poll: false` for a reader that only needs which hub is which.
 */
export const useHubs = ({ poll = true } = {}) =>
  useQuery({ queryKey: keys.hubs(), queryFn: () => apiCall(api.hubs.list, {}), retry: false, refetchInterval: poll ? 5000 : false });

/** The id of the hub serving the page (it never changes while the page is open); null for a non-operator, or until known. */
export const useThisHub = (): string | null => useHubs({ poll: false }).data?.find((h) => h.self)?.id ?? null;

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
