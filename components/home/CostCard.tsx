import { usd } from "@/lib/format.ts";
import type { Costs } from "@/lib/queries/home.ts";
import { BarChart, ColumnChart } from "./BarChart.tsx";

/** What the team's sessions cost so far: the total, per session and per day (UTC). */
export function CostCard({ costs }: { costs: Costs }) {
  if (costs.perSession.length === 0) return <p className="empty">No session has cost anything yet in this team.</p>;
  return (
    <div className="stack">
      <div>
        <span className="cost-total" data-testid="cost-total">{usd(costs.totalUsd)}</span> <span className="muted">so far</span>
      </div>
      <section aria-label="cost per session" data-testid="cost-per-session">
        <h3>Per session</h3>
        <BarChart title="Cost per session" head={["Session", "Cost"]} format={usd} bars={costs.perSession.map((s) => ({ label: s.name, value: s.costUsd, href: `/sessions/${encodeURIComponent(s.name)}` }))} />
      </section>
      <section aria-label="cost per day" data-testid="cost-per-day">
        <h3>Per day (UTC)</h3>
        <ColumnChart title="Cost per day" head={["Day", "Cost"]} format={usd} tick={(day) => day.slice(5)} bars={costs.perDay.map((d) => ({ label: d.day, value: d.costUsd }))} />
      </section>
    </div>
  );
}
