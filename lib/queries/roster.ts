/** The team's roster, for the pages that show or pick members (keys in ./keys.ts). */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useRoster = (team: string) => useQuery({ queryKey: keys.roster(team), queryFn: () => apiCall(api.roster.list, { team }) });
