"use client";

import Link from "next/link";
import type { PipelineView } from "@/lib/api/pipelines.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { When } from "../ui/When.tsx";
import { PipelineControls } from "./PipelineControls.tsx";

/** "executed 3 · condition_false 1", most frequent first. */
export const executionSummary = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([outcome, n]) => `${outcome.replace("_", " ")} ${n}`)
    .join(" · ");

export function PipelineTable({ team, items }: { team: string; items: PipelineView[] }) {
  return (
    <table className="stack-on-phone">
      <thead>
        <tr>
          <th>Pipeline</th>
          <th>Status</th>
          <th>Rules</th>
          <th>Executions</th>
          <th>Created</th>
          <th aria-label="actions" />
        </tr>
      </thead>
      <tbody>
        {items.map((p) => (
          <tr key={p.id} data-testid={`pipeline-${p.id}`}>
            <td>
              <Link href={`/pipelines/${encodeURIComponent(p.id)}`} className="mono">
                {p.id}
              </Link>
            </td>
            <td>
              <StatusBadge status={p.status} />
            </td>
            <td data-label="rules">
              {p.rules.length} <span className="muted mono">{[...new Set(p.rules.map((r) => r.trigger.type))].join(", ")}</span>
            </td>
            <td>{executionSummary(p.executions) || <span className="muted">none yet</span>}</td>
            <td className="muted">
              <When at={p.createdAt} /> by {p.createdBy}
            </td>
            <td className="actions">
              <PipelineControls team={team} pipeline={p} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
