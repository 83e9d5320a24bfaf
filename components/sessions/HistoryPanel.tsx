import { Fragment } from "react";
import { duration, usd } from "@/lib/format.ts";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";

type Column = "n" | "status" | "cost" | "turns" | "time" | "tools";

const valueOf = (i: InteractionView, key: Column): SortValue => {
  switch (key) {
    case "n":
      return i.n;
    case "status":
      return i.status;
    case "cost":
      return i.costUsd;
    case "turns":
      return i.turns;
    case "time":
      return i.durationMs;
    case "tools":
      return i.toolsUsed.join(", ") || null;
  }
};

/** Every turn with what it cost, and why it failed or stopped, with the totals below; the prompt is shown on hover. */
export function HistoryPanel({ interactions }: { interactions: InteractionView[] }) {
  const { rows, header } = useSort<InteractionView, Column>(interactions, valueOf);
  return (
    <table className="compact sortable" data-testid="history">
      <thead>
        <tr>
          {header("#", "n", true)}
          {header("Status", "status")}
          {header("Cost", "cost", true)}
          {header("Turns", "turns", true)}
          {header("Time", "time", true)}
          {header("Tools", "tools")}
        </tr>
      </thead>
      <tbody>
        {rows.map((i) => (
          <Fragment key={i.id}>
            <tr title={i.prompt} data-testid={`interaction-${i.n}`} className={i.error ? "has-error" : undefined}>
              <td className="num">{i.n}</td>
              <td>
                <StatusBadge status={i.status} />
                {i.permissionDenials.length > 0 && <div className="muted">{i.permissionDenials.length} denied</div>}
              </td>
              <td className="num">{usd(i.costUsd)}</td>
              <td className="num">{i.turns}</td>
              <td className="num">{i.durationMs === null ? "—" : duration(i.durationMs)}</td>
              <td className="mono">{i.toolsUsed.join(", ") || "—"}</td>
            </tr>
            {/* Why the turn did not complete, across the whole row: the API's message or the limit reached. */}
            {i.error && (
              <tr data-testid={`interaction-${i.n}-error`}>
                <td />
                <td colSpan={5} className="problem">
                  {i.error}
                </td>
              </tr>
            )}
          </Fragment>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="history-total">
          <td colSpan={2}>
            {interactions.length} interaction{interactions.length === 1 ? "" : "s"}
          </td>
          <td className="num">{usd(total(interactions, (i) => i.costUsd))}</td>
          <td className="num">{total(interactions, (i) => i.turns)}</td>
          <td className="num">{duration(total(interactions, (i) => i.durationMs ?? 0))}</td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
