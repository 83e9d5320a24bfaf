import { Fragment } from "react";
import { duration, usd } from "@/lib/format.ts";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";

type Column = "n" | "status" | "cost" | "turns" | "time";

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
  }
};

/**
 * Every turn with what it cost, and why it failed or stopped (one line, the whole of it on hover), with the totals
 * below; the prompt is shown on hover. Fixed columns; the tools a turn used are a line under it, cut with the whole
 * list in the tooltip, so however many there are they never widen the page.
 */
export function HistoryPanel({ interactions }: { interactions: InteractionView[] }) {
  const { rows, header } = useSort<InteractionView, Column>(interactions, valueOf);
  return (
    <table className="compact sortable history" data-testid="history">
      <colgroup>
        <col className="col-n" />
        <col className="col-status" />
        <col className="col-cost" />
        <col className="col-turns" />
        <col className="col-time" />
      </colgroup>
      <thead>
        <tr>
          {header("#", "n", true)}
          {header("Status", "status")}
          {header("Cost", "cost", true)}
          {header("Turns", "turns", true)}
          {header("Time", "time", true)}
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
            </tr>
            {/* The tools it used, on a line of their own under the figures: however many, cut to the card's width. */}
            {i.toolsUsed.length > 0 && (
              <tr className="sub-row" data-testid={`interaction-${i.n}-tools`}>
                <td />
                <td colSpan={4} className="mono tools muted" title={i.toolsUsed.join(", ")}>
                  {i.toolsUsed.join(", ")}
                </td>
              </tr>
            )}
            {/* Why the turn did not complete, across the whole row: the API's message or the limit reached. */}
            {i.error && (
              <tr data-testid={`interaction-${i.n}-error`}>
                <td />
                <td colSpan={4} className="problem" title={i.error}>
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
        </tr>
      </tfoot>
    </table>
  );
}
