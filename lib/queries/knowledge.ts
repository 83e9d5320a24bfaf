/** Queries of the Knowledge page (keys in ./keys.ts; every team event refreshes them over /ws). */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import type { WisdomKind } from "../api/knowledge.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useTeamState = (team: string) =>
  useQuery({ queryKey: keys.teamState(team), queryFn: () => apiCall(api.knowledge.teamState, { team, history: 5 }) });

/** The newest 500 entries are plenty for a page (read newest last); older ones stay readable through `wisdom --after`. */
export const useWisdom = (team: string, kind: WisdomKind | "all") =>
  useQuery({
    queryKey: keys.wisdom(team, kind),
    queryFn: () => apiCall(api.knowledge.listWisdom, { team, limit: 500, newest: true, ...(kind === "all" ? {} : { kind }) }),
  });

export const useExplorations = (team: string) =>
  useQuery({ queryKey: keys.explorations(team), queryFn: () => apiCall(api.knowledge.listExplorations, { team, limit: 500 }) });
