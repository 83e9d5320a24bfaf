import Link from "next/link";
import { usd } from "@/lib/format.ts";
import type { SessionView } from "@/lib/api/sessions.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { SandboxBadge } from "./SandboxBadge.tsx";
import { SessionProblem } from "./SessionProblem.tsx";
import { When } from "../ui/When.tsx";

export function SessionTable({ items }: { items: SessionView[] }) {
  return (
    <div className="table-scroll">
      <table>
        <thead>
          <tr>
            <th>Session</th>
            <th>Kind</th>
            <th>State</th>
            <th>Model</th>
            <th className="num">Cost</th>
            <th className="num">Turns</th>
            <th className="num">Interactions</th>
            <th className="num">Queued</th>
            <th className="num">Approvals</th>
            <th>Updated</th>
          </tr>
        </thead>
        <tbody>
          {items.map((s) => (
            <tr key={s.name} data-testid={`session-${s.name}`}>
              <td>
                <Link href={`/sessions/${encodeURIComponent(s.name)}`} className="mono">
                  {s.name}
                </Link>
              </td>
              <td>{s.kind}</td>
              <td className="state-cell">
                <StatusBadge status={s.status} position={s.queuePosition} problem={s.problem} />
                {s.stalled && <span className="badge stalled">stalled</span>}
                <SandboxBadge sandbox={s.sandbox} />
                <SessionProblem problem={s.problem} clip testId={`problem-${s.name}`} />
              </td>
              <td className="mono">{s.model ?? "default"}</td>
              <td className="num">{usd(s.costUsd)}</td>
              <td className="num">{s.turns}</td>
              <td className="num">{s.interactions}</td>
              <td className="num">{s.queued || ""}</td>
              <td className="num">{s.pendingApprovals > 0 ? <span className="badge waiting_permission">{s.pendingApprovals}</span> : ""}</td>
              <td>
                <When at={s.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
