"use client";

import { usd } from "@/lib/format.ts";
import type { Costs, ScopeCost } from "@/lib/api/overview.ts";
import { BudgetTable } from "../budgets/BudgetTable.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";
import { BarChart, ColumnChart } from "./BarChart.tsx";

/** A member's or contract's bar, its budget the line; against a monthly budget the figure is this month's, and the note says which. */
const scopeBars = (rows: ScopeCost[]) =>
  rows.map((r) => ({
    label: r.name,
    value: r.costUsd,
    limit: r.budgetUsd,
    note: r.window === "lifetime" ? undefined : r.window,
    href: r.budgetUsd === null ? undefined : "/budgets",
  }));

/** One row of a split of the cost by some property of the sessions (their model, their runtime). */
type Split = { name: string; sessions: number; costUsd: number };
const splitValue = (m: Split, key: "name" | "sessions" | "costUsd"): SortValue => m[key];

/** Few models or runtimes, so a table says it best: the cost, the sessions behind it, and the total. */
function SplitTable({ rows: items, label, testId }: { rows: Split[]; label: string; testId: string }) {
  const { rows, header } = useSort<Split, "name" | "sessions" | "costUsd">(items, splitValue);
  return (
    <table className="compact sortable">
      <thead>
        <tr>
          {header(label, "name")}
          {header("Sessions", "sessions", true)}
          {header("Cost", "costUsd", true)}
        </tr>
      </thead>
      <tbody>
        {rows.map((m) => (
          <tr key={m.name} data-testid={`${testId}-${m.name}`}>
            <td className="mono">{m.name}</td>
            <td className="num">{m.sessions}</td>
            <td className="num">{usd(m.costUsd)}</td>
          </tr>
        ))}
      </tbody>
      {items.length > 1 && (
        <tfoot>
          <tr data-testid={`${testId}-total`}>
            <th scope="row">Total</th>
            <td className="num">{total(items, (m) => m.sessions)}</td>
            <td className="num">{usd(total(items, (m) => m.costUsd))}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}

/**
 * What the team's sessions cost so far (docs/overview.md): the total and the days (UTC) across the
 * card, then per session, member, contract, model and runtime side by side where the card is wide enough,
 * and the budgets with what each has left.
 */
export function CostCard({ costs }: { costs: Costs }) {
  if (costs.perSession.length === 0 && costs.budgets.length === 0) return <p className="empty">No session has cost anything yet in this team.</p>;
  return (
    <div className="stack">
      <div>
        <span className="cost-total" data-testid="cost-total">
          {usd(costs.totalUsd)}
        </span>{" "}
        <span className="muted">so far</span>
      </div>
      {costs.perDay.length > 0 && (
        <section aria-label="cost per day" data-testid="cost-per-day">
          <h3>Per day (UTC)</h3>
          <ColumnChart
            title="Cost per day"
            head={["Day", "Cost"]}
            format={usd}
            tick={(day) => day.slice(5)}
            bars={costs.perDay.map((d) => ({ label: d.day, value: d.costUsd }))}
          />
        </section>
      )}
      <div className="cost-grid">
        {costs.perSession.length > 0 && (
          <section aria-label="cost per session" data-testid="cost-per-session">
            <h3>Per session</h3>
            <BarChart
              title="Cost per session"
              head={["Session", "Cost"]}
              format={usd}
              bars={costs.perSession.map((s) => ({ label: s.name, value: s.costUsd, href: `/sessions/${encodeURIComponent(s.name)}` }))}
            />
          </section>
        )}
        {costs.perMember.length > 0 && (
          <section aria-label="cost per member" data-testid="cost-per-member">
            <h3>Per member</h3>
            <BarChart title="Cost per member" head={["Member", "Cost"]} format={usd} bars={scopeBars(costs.perMember)} />
          </section>
        )}
        {costs.perContract.length > 0 && (
          <section aria-label="cost per contract" data-testid="cost-per-contract">
            <h3>Per contract</h3>
            <BarChart title="Cost per contract" head={["Contract", "Cost"]} format={usd} bars={scopeBars(costs.perContract)} />
          </section>
        )}
        {costs.perModel.length > 0 && (
          <section aria-label="cost per model" data-testid="cost-per-model">
            <h3>Per model</h3>
            <SplitTable label="Model" testId="cost-model" rows={costs.perModel.map(({ model, ...m }) => ({ name: model, ...m }))} />
          </section>
        )}
        {costs.perRuntime.length > 0 && (
          <section aria-label="cost per runtime" data-testid="cost-per-runtime">
            <h3>Per runtime</h3>
            <SplitTable label="Runtime" testId="cost-runtime" rows={costs.perRuntime.map(({ runtime, ...m }) => ({ name: runtime, ...m }))} />
          </section>
        )}
        {costs.budgets.length > 0 && (
          <section aria-label="budgets" data-testid="cost-budgets">
            <h3>Budgets</h3>
            <BudgetTable items={costs.budgets} compact />
          </section>
        )}
      </div>
    </div>
  );
}
