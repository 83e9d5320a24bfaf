/** Queries of the overview page (keys in ./keys.ts). */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useOverview = (team: string) => useQuery({ queryKey: keys.overview(team), queryFn: () => apiCall(api.overview.get, { team }) });
export const useEvents = (team: string) => useQuery({ queryKey: keys.events(team), queryFn: () => apiCall(api.events.list, { team, limit: 40 }) });
export const useArtifacts = (team: string) => useQuery({ queryKey: keys.artifacts(team), queryFn: () => apiCall(api.artifacts.list, { team, limit: 100 }) });
export const useContracts = (team: string) => useQuery({ queryKey: keys.contracts(team), queryFn: () => apiCall(api.contracts.list, { team, limit: 200 }) });
