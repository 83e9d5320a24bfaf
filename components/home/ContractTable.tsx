import type { ContractView } from "@/lib/api/contracts.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";

export function ContractTable({ items }: { items: ContractView[] }) {
  return (
    <table className="stack-on-phone">
      <thead>
        <tr>
          <th>Contract</th>
          <th>Assignee</th>
          <th>Status</th>
          <th>Why</th>
        </tr>
      </thead>
      <tbody>
        {items.map((c) => (
          <tr key={c.id} data-testid={`contract-${c.id}`}>
            <td>
              <div className="mono">{c.id}</div>
              <div className="muted">{c.title}</div>
            </td>
            <td data-label="assignee">{c.assignee}</td>
            <td>
              <StatusBadge status={c.status} />
              {c.retryCount > 0 && <span className="muted"> retry {c.retryCount}</span>}
            </td>
            <td className="muted">{c.statusReason ?? ""}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
