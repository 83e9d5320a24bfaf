import { usd } from "@/lib/format.ts";
import type { Costs, ScopeCost } from "@/lib/api/overview.ts";
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

/** What the team's sessions cost so far: the total, per session, per member and per contract (against their budgets) and per day (UTC). */
export function CostCard({ costs }: { costs: Costs }) {
  if (costs.perSession.length === 0) return <p className="empty">No session has cost anything yet in this team.</p>;
  return (
    <div className="stack">
      <div>
        <span className="cost-total" data-testid="cost-total">
          {usd(costs.totalUsd)}
        </span>{" "}
        <span className="muted">so far</span>
      </div>
      <section aria-label="cost per session" data-testid="cost-per-session">
        <h3>Per session</h3>
        <BarChart
          title="Cost per session"
          head={["Session", "Cost"]}
          format={usd}
          bars={costs.perSession.map((s) => ({ label: s.name, value: s.costUsd, href: `/sessions/${encodeURIComponent(s.name)}` }))}
        />
      </section>
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
    </div>
  );
}
