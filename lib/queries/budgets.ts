/** Queries and changes of the budgets page (keys in ./keys.ts). */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { BudgetView, SetBudgetInput } from "../api/budgets.ts";
import { apiGet, apiSend } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type BudgetItem = Omit<BudgetView, "updatedAt"> & { updatedAt: string };

export const useBudgets = (team: string) => useQuery({ queryKey: keys.budgets(team), queryFn: () => apiGet<BudgetItem[]>("/api/budgets", { team }) });

/** Everything but the team is sent as typed, so the hub names what is wrong with it. */
export type BudgetDraft = Omit<Partial<Record<keyof SetBudgetInput, unknown>>, "team">;

export function useSetBudget(team: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (b: BudgetDraft) => apiSend<BudgetItem>("PUT", "/api/budgets", { team, ...b }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: keys.budgets(team) }),
  });
}
