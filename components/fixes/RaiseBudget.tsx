"use client";

import { useState } from "react";
import Link from "next/link";
import type { BudgetView } from "@/lib/api/budgets.ts";
import { amountOf, inUnit, spentOfAmount } from "@/lib/budget-figures.ts";
import { useSetBudget } from "@/lib/queries/budgets.ts";
import { usePermissions } from "@/lib/queries/permissions.ts";
import { budgetKey } from "../shell/alerts.ts";

export const budgetLabel = (b: Pick<BudgetView, "scope" | "target" | "team"> & Partial<Pick<BudgetView, "unit">>) =>
  `${b.scope === "team" ? `team ${b.team}` : `${b.scope} ${b.target}`}${b.unit === "tokens" ? " (tokens)" : ""}`;

/**
 * A new amount that leaves room: twice the old one, and at least what was spent plus the old
 * amount, in whole cents, or in whole thousands of tokens for a token budget.
 */
export function suggestedRaise(b: Pick<BudgetView, "unit" | "amountUsd" | "amountTokens" | "spentUsd" | "spentTokens">): number {
  const [amount, spent, step] = b.unit === "tokens" ? [amountOf(b), b.spentTokens, 1000] : [amountOf(b), b.spentUsd, 0.01];
  return Math.ceil(Math.max(amount * 2, spent + amount, step) / step) * step;
}

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
  const tokens = budget.unit === "tokens";
  // A contract's budget is its assigner's to raise too, which only the operation itself can tell.
  const allowed = budget.scope === "contract" ? true : may("budget.set");
  if (allowed === false) {
    return (
      <p className="muted fix" data-testid={`raise-${budget.scope}-${budget.target ?? ""}${tokens ? "-tokens" : ""}`} data-alert-key={budgetKey(budget)}>
        {label} is used up ({spentOfAmount(budget)}); only {who("budget.set")} may raise it (<Link href="/budgets">Budgets</Link>).
      </p>
    );
  }
  return (
    <form
      className="fix raise-budget"
      aria-label={`raise the budget of ${label}`}
      data-testid={`raise-${budget.scope}-${budget.target ?? ""}${tokens ? "-tokens" : ""}`}
      data-alert-key={budgetKey(budget)}
      onSubmit={(e) => {
        e.preventDefault();
        const n = Number(amount);
        // Text that is not a number goes as typed, so the hub's message says what is wrong with it.
        const value = amount.trim() !== "" && Number.isFinite(n) ? n : amount;
        set.mutate({
          scope: budget.scope,
          ...(budget.target === null ? {} : { target: budget.target }),
          ...(tokens ? { amountTokens: value } : { amountUsd: value }),
          period: budget.period,
          warnAt: budget.warnAt,
          ...(budget.onExceed ? { onExceed: budget.onExceed } : {}),
        });
      }}
    >
      <span>
        {label}: {spentOfAmount(budget)}
        {budget.period === "month" ? ` in ${budget.window}` : ""} · raise to {tokens ? "" : "$"}
      </span>
      <input
        type="number"
        min={tokens ? "1" : "0"}
        step={tokens ? "1" : "any"}
        inputMode={tokens ? "numeric" : "decimal"}
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        aria-label={`new amount for ${label}${tokens ? "" : " (US dollars)"}`}
        className="amount"
      />
      {tokens && <span>tokens</span>}
      <button type="submit" className="small primary" disabled={set.isPending}>
        {set.isPending ? "Raising…" : "Raise"}
      </button>
      {set.isSuccess && !set.isPending && (
        <span className="muted" role="status">
          raised to {inUnit(set.data.unit, amountOf(set.data))}
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
