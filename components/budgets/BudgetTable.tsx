"use client";

import { dollars } from "@/lib/format.ts";
import type { BudgetView } from "@/lib/api/budgets.ts";

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

export function BudgetTable({ items }: { items: BudgetView[] }) {
  return (
    <table className="budgets">
      <thead>
        <tr>
          <th>Budget</th>
          <th>Spent</th>
          <th>Left</th>
          <th>Burn / day</th>
          <th>Forecast</th>
          <th>Window</th>
          <th>When used up</th>
        </tr>
      </thead>
      <tbody>
        {items.map((b) => (
          <tr key={`${b.scope}:${b.target ?? ""}`} data-testid={`budget-${b.scope}-${b.target ?? b.team}`}>
            <td className="mono">{label(b)}</td>
            <td>
              {dollars(b.spentUsd)} <span className="muted">of {dollars(b.amountUsd)}</span>
              <Meter b={b} />
            </td>
            <td>{b.usedUp ? <strong className="error">used up</strong> : dollars(b.leftUsd)}</td>
            <td>{dollars(b.burnPerDayUsd)}</td>
            <td>
              {b.forecastUsd === null ? (
                <span className="muted">no end</span>
              ) : (
                <span className={b.forecastUsd > b.amountUsd ? "error" : undefined}>{dollars(b.forecastUsd)}</span>
              )}
            </td>
            <td className="muted">{b.window}</td>
            <td className="muted">
              {b.scope === "contract" && b.onExceed === "fail" ? "contract fails" : "turns wait"} · warns at {Math.round(b.warnAt * 100)}%
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
