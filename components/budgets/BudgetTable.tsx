"use client";

import { amountOf, burnOf, forecastOf, inUnit, leftOf, spentFigure, spentOf } from "@/lib/budget-figures.ts";
import type { BudgetView } from "@/lib/api/budgets.ts";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

const label = (b: BudgetView) => `${b.scope === "team" ? `team ${b.team}` : `${b.scope} ${b.target}`}${b.unit === "tokens" ? " (tokens)" : ""}`;

/** Where it stands: used up, past its warning, or fine; the bar is spent against the amount. */
function Meter({ b }: { b: BudgetView }) {
  const share = amountOf(b) > 0 ? Math.min(1, spentOf(b) / amountOf(b)) : 1;
  const state = b.usedUp ? "used-up" : spentOf(b) >= amountOf(b) * b.warnAt ? "warning" : "ok";
  return (
    <div
      className={`budget-meter ${state}`}
      role="meter"
      aria-valuemin={0}
      aria-valuemax={amountOf(b)}
      aria-valuenow={spentOf(b)}
      aria-label={`${label(b)} spent`}
    >
      <span style={{ width: `${(share * 100).toFixed(1)}%` }} />
    </div>
  );
}

type Column = "budget" | "spent" | "left" | "burn" | "forecast" | "window";

const valueOf = (b: BudgetView, key: Column): SortValue => {
  switch (key) {
    case "budget":
      return label(b);
    // Sorted by share where units differ: 120k tokens and $1.20 do not compare.
    case "spent":
      return spentOf(b) / Math.max(amountOf(b), 1e-9);
    case "left":
      return leftOf(b) / Math.max(amountOf(b), 1e-9);
    case "burn":
      return burnOf(b) / Math.max(amountOf(b), 1e-9);
    case "forecast":
      return forecastOf(b) === null ? null : forecastOf(b)! / Math.max(amountOf(b), 1e-9);
    case "window":
      return b.window;
  }
};

/**
 * Each budget's spent against its amount and what is left; `compact` (the overview) leaves out
 * burn, forecast, the window (a monthly one's month follows its spent) and what happens when it is
 * used up, which the Budgets page shows. No totals row:
 * a team's budget and its members' count the same spending, so their sum means nothing.
 */
export function BudgetTable({ items, compact = false }: { items: BudgetView[]; compact?: boolean }) {
  const { rows, header } = useSort<BudgetView, Column>(items, valueOf);
  return (
    <div className="table-scroll">
      <table className="budgets sortable">
        <thead>
          <tr>
            {header("Budget", "budget")}
            {header("Spent", "spent", true)}
            {header("Left", "left", true)}
            {!compact && header("Burn / day", "burn", true)}
            {!compact && header("Forecast", "forecast", true)}
            {!compact && header("Window", "window")}
            {!compact && <th>When used up</th>}
          </tr>
        </thead>
        <tbody>
          {rows.map((b) => (
            <tr key={`${b.scope}:${b.target ?? ""}:${b.unit}`} data-testid={`budget-${b.scope}-${b.target ?? b.team}${b.unit === "tokens" ? "-tokens" : ""}`}>
              <td className="mono">
                <span className="clip-line" title={label(b)}>
                  {label(b)}
                </span>
              </td>
              <td className="num">
                {/* "$0.40 of $2.00", "120k of 500k tokens"; in the overview's narrow cell the amount takes a line of its own rather than being cut off. */}
                {spentFigure(b)}{" "}
                <span className={compact ? "muted budget-of" : "muted"}>
                  of {inUnit(b.unit, amountOf(b))}
                  {compact && b.period === "month" && <> in {b.window}</>}
                </span>
                <Meter b={b} />
              </td>
              <td className="num">{b.usedUp ? <strong className="error">used up</strong> : inUnit(b.unit, leftOf(b))}</td>
              {!compact && <td className="num">{inUnit(b.unit, burnOf(b))}</td>}
              {!compact && (
                <td className="num">
                  {forecastOf(b) === null ? (
                    <span className="muted">no end</span>
                  ) : (
                    <span className={forecastOf(b)! > amountOf(b) ? "error" : undefined}>{inUnit(b.unit, forecastOf(b)!)}</span>
                  )}
                </td>
              )}
              {!compact && <td className="muted">{b.window}</td>}
              {!compact && (
                <td className="muted">
                  {b.scope === "contract" && b.onExceed === "fail" ? "contract fails" : "turns wait"} · warns at {Math.round(b.warnAt * 100)}%
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
