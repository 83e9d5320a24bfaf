import { duration, usd } from "@/lib/format.ts";
import type { InteractionItem } from "@/lib/queries/sessions.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";

/** Every turn with what it cost; the prompt is shown on hover. */
export function HistoryPanel({ interactions }: { interactions: InteractionItem[] }) {
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
          <tr key={i.id} title={i.prompt} data-testid={`interaction-${i.n}`}>
            <td>{i.n}</td>
            <td>
              <StatusBadge status={i.status} />
              {i.permissionDenials.length > 0 && <div className="muted">{i.permissionDenials.length} denied</div>}
              {i.error && (
                <div className="problem clip" title={i.error}>
                  {i.error}
                </div>
              )}
            </td>
            <td>{usd(i.costUsd)}</td>
            <td>{i.turns}</td>
            <td>{i.durationMs === null ? "—" : duration(i.durationMs)}</td>
            <td className="mono">{i.toolsUsed.join(", ") || "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
