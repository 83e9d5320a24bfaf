"use client";

import { useState } from "react";
import Link from "next/link";
import type { BudgetView } from "@/lib/api/budgets.ts";
import { dollars } from "@/lib/format.ts";
import { useSetBudget } from "@/lib/queries/budgets.ts";
import { usePermissions } from "@/lib/queries/permissions.ts";

export const budgetLabel = (b: Pick<BudgetView, "scope" | "target" | "team">) => (b.scope === "team" ? `team ${b.team}` : `${b.scope} ${b.target}`);

/** A new amount that leaves room: twice the old one, and at least what was spent plus the old amount, in whole cents. */
export const suggestedRaise = (b: Pick<BudgetView, "amountUsd" | "spentUsd">) =>
  Math.ceil(Math.max(b.amountUsd * 2, b.spentUsd + b.amountUsd, 0.01) * 100) / 100;

/**
 * A used-up budget raised where it blocks (docs/dashboard.md#a-fix-beside-every-problem): the same PUT /api/budgets as
 * the Budgets page, keeping the budget's period, warning and what happens when it is used up. Only those who may set
 * it see the form (the operator; a contract's assigner for its contract's); others are told who may.
 */
export function RaiseBudget({ team, budget }: { team: string; budget: BudgetView }) {
  const set = useSetBudget(team);
  const { may, who } = usePermissions(team);
  const [amount, setAmount] = useState(String(suggestedRaise(budget)));
  const label = budgetLabel(budget);
  // A contract's budget is its assigner's to raise too, which only the operation itself can tell.
  const allowed = budget.scope === "contract" ? true : may("budget.set");
  if (allowed === false) {
    return (
      <p className="muted fix" data-testid={`raise-${budget.scope}-${budget.target ?? ""}`} data-alert-key={`budget:${budget.scope}:${budget.target ?? ""}`}>
        {label} is used up ({dollars(budget.spentUsd)} of {dollars(budget.amountUsd)}); only {who("budget.set")} may raise it (
        <Link href="/budgets">Budgets</Link>).
      </p>
    );
  }
  return (
    <form
      className="fix raise-budget"
      aria-label={`raise the budget of ${label}`}
      data-testid={`raise-${budget.scope}-${budget.target ?? ""}`}
      data-alert-key={`budget:${budget.scope}:${budget.target ?? ""}`}
      onSubmit={(e) => {
        e.preventDefault();
        const amountUsd = Number(amount);
        set.mutate({
          scope: budget.scope,
          ...(budget.target === null ? {} : { target: budget.target }),
          amountUsd: amount.trim() !== "" && Number.isFinite(amountUsd) ? amountUsd : amount,
          period: budget.period,
          warnAt: budget.warnAt,
          ...(budget.onExceed ? { onExceed: budget.onExceed } : {}),
        });
      }}
    >
      <span>
        {label}: {dollars(budget.spentUsd)} of {dollars(budget.amountUsd)}
        {budget.period === "month" ? ` in ${budget.window}` : ""} · raise to $
      </span>
      <input
        type="number"
        min="0"
        step="any"
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        aria-label={`new amount for ${label} (US dollars)`}
        className="amount"
      />
      <button type="submit" className="small primary" disabled={set.isPending}>
        {set.isPending ? "Raising…" : "Raise"}
      </button>
      {set.isSuccess && !set.isPending && (
        <span className="muted" role="status">
          raised to {dollars(set.data.amountUsd)}
        </span>
      )}
      {set.error && (
        <span className="form-error" role="alert">
          {set.error.message}
        </span>
      )}
    </form>
  );
}
