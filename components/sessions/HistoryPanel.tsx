import { Fragment } from "react";
import { duration, usd } from "@/lib/format.ts";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";

/** Every turn with what it cost, and why it failed or stopped; the prompt is shown on hover. */
export function HistoryPanel({ interactions }: { interactions: InteractionView[] }) {
  return (
    <table className="compact" data-testid="history">
      <thead>
        <tr>
          <th>#</th>
          <th>Status</th>
          <th>Cost</th>
          <th>Turns</th>
          <th>Time</th>
          <th>Tools</th>
        </tr>
      </thead>
      <tbody>
        {interactions.map((i) => (
          <Fragment key={i.id}>
            <tr title={i.prompt} data-testid={`interaction-${i.n}`} className={i.error ? "has-error" : undefined}>
              <td>{i.n}</td>
              <td>
                <StatusBadge status={i.status} />
                {i.permissionDenials.length > 0 && <div className="muted">{i.permissionDenials.length} denied</div>}
              </td>
              <td>{usd(i.costUsd)}</td>
              <td>{i.turns}</td>
              <td>{i.durationMs === null ? "—" : duration(i.durationMs)}</td>
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
    </table>
  );
}
