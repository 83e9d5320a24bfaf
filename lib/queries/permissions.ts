/** What the caller may do in a team (docs/dashboard.md#who-may), for showing an action only to those who may take it. */
import { useQuery } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type May = {
  /** Whether the caller may; undefined until known (an action then shows, and the hub's own check answers). */
  may: (operation: string) => boolean | undefined;
  /** Who may, in words: "the operator", "a lead of team 'auth' or the operator". */
  who: (operation: string) => string;
};

/** @example const { may, who } = usePermissions(team); may("budget.set") === false && <p>Only {who("budget.set")} may.</p> */
export function usePermissions(team: string): May {
  const q = useQuery({ queryKey: keys.permissions(team), queryFn: () => apiCall(api.teams.permissions, { team }), staleTime: 60_000 });
  const of = (operation: string) => q.data?.permissions.find((p) => p.operation === operation);
  return { may: (operation) => of(operation)?.may, who: (operation) => of(operation)?.who ?? "the operator" };
}
