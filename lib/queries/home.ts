/** Queries of the overview page (keys in ./keys.ts). */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useOverview = (team: string) => useQuery({ queryKey: keys.overview(team), queryFn: () => apiCall(api.overview.get, { team }) });
export const useEvents = (team: string) => useQuery({ queryKey: keys.events(team), queryFn: () => apiCall(api.events.list, { team, limit: 40 }) });

/** The overview's tables: the newest rows of each list, in one answer. */
const ARTIFACTS = { limit: 100 };
const CONTRACTS = { limit: 200 };

export const useArtifacts = (team: string) =>
  useQuery({ queryKey: keys.artifacts.list(team, ARTIFACTS), queryFn: () => apiCall(api.artifacts.list, { team, ...ARTIFACTS }) });
export const useContracts = (team: string) =>
  useQuery({ queryKey: keys.contracts.list(team, CONTRACTS), queryFn: () => apiCall(api.contracts.list, { team, ...CONTRACTS }) });
