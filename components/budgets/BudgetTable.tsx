"use client";

import { dollars } from "@/lib/format.ts";
import type { BudgetView } from "@/lib/api/budgets.ts";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

const label = (b: BudgetView) => (b.scope === "team" ? `team ${b.team}` : `${b.scope} ${b.target}`);

/** Where it stands: used up, past its warning, or fine; the bar is spent against the amount. */
function Meter({ b }: { b: BudgetView }) {
  const share = b.amountUsd > 0 ? Math.min(1, b.spentUsd / b.amountUsd) : 1;
  const state = b.usedUp ? "used-up" : b.spentUsd >= b.amountUsd * b.warnAt ? "warning" : "ok";
  return (
    <div
      className={`budget-meter ${state}`}
      role="meter"
      aria-valuemin={0}
      aria-valuemax={b.amountUsd}
      aria-valuenow={b.spentUsd}
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
    case "spent":
      return b.spentUsd;
    case "left":
      return b.leftUsd;
    case "burn":
      return b.burnPerDayUsd;
    case "forecast":
      return b.forecastUsd;
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
            <tr key={`${b.scope}:${b.target ?? ""}`} data-testid={`budget-${b.scope}-${b.target ?? b.team}`}>
              <td className="mono">
                <span className="clip-line" title={label(b)}>
                  {label(b)}
                </span>
              </td>
              <td className="num">
                {dollars(b.spentUsd)} {/* In the overview's narrow cell the amount takes a line of its own rather than being cut off. */}
                <span className={compact ? "muted budget-of" : "muted"}>
                  of {dollars(b.amountUsd)}
                  {compact && b.period === "month" && <> in {b.window}</>}
                </span>
                <Meter b={b} />
              </td>
              <td className="num">{b.usedUp ? <strong className="error">used up</strong> : dollars(b.leftUsd)}</td>
              {!compact && <td className="num">{dollars(b.burnPerDayUsd)}</td>}
              {!compact && (
                <td className="num">
                  {b.forecastUsd === null ? (
                    <span className="muted">no end</span>
                  ) : (
                    <span className={b.forecastUsd > b.amountUsd ? "error" : undefined}>{dollars(b.forecastUsd)}</span>
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
