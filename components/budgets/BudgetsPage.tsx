"use client";

import { useBudgets } from "@/lib/queries/budgets.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { BudgetForm } from "./BudgetForm.tsx";
import { BudgetTable } from "./BudgetTable.tsx";

/** The team's budgets (docs/budgets.md): spent, left, burn per day and forecast; and a form to set one. */
export function BudgetsPage() {
  const { team } = useTeam();
  const list = useBudgets(team);
  return (
    <div className="stack">
      <h1 className="page-title">Budgets</h1>
      <Card title="Budgets" testId="budgets">
        <ListState
          loading={list.isLoading}
          error={list.error}
          empty={(list.data?.length ?? 0) === 0}
          hint={
            <>
              No budgets in this team. Set one below, or with <code>teamhub budget-set team --amount 10</code>
            </>
          }
        />
        {list.data && list.data.length > 0 && <BudgetTable items={list.data} />}
      </Card>
      <Card title="Set a budget" testId="budget-form">
        <BudgetForm team={team} />
      </Card>
    </div>
  );
}
