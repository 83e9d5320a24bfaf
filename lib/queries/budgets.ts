/** Queries and changes of the budgets page (keys in ./keys.ts). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { SetBudgetInput } from "../api/budgets.ts";
import { asTyped } from "../api/endpoint.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useBudgets = (team: string) => useQuery({ queryKey: keys.budgets(team), queryFn: () => apiCall(api.budgets.list, { team }) });

/** Everything but the team is sent as typed, so the hub names what is wrong with it. */
export type BudgetDraft = Omit<Partial<Record<keyof SetBudgetInput, unknown>>, "team">;

export function useSetBudget(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: BudgetDraft) => apiCall(api.budgets.set, asTyped(api.budgets.set, { team, ...b })),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.budgets(team) }),
  });
}
