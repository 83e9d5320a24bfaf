"use client";

import Link from "next/link";
import type { PipelineView } from "@/lib/api/pipelines.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";
import { When } from "../ui/When.tsx";
import { PipelineControls } from "./PipelineControls.tsx";

/** "executed 3 · condition_false 1", most frequent first. */
export const executionSummary = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([outcome, n]) => `${outcome.replace("_", " ")} ${n}`)
    .join(" · ");

type Column = "id" | "status" | "rules" | "executions" | "created";

const executionCount = (p: PipelineView) => total(Object.values(p.executions), (n) => n);

const valueOf = (p: PipelineView, key: Column): SortValue => {
  switch (key) {
    case "id":
      return p.id;
    case "status":
      return p.status;
    case "rules":
      return p.rules.length;
    case "executions":
      return executionCount(p);
    case "created":
      return p.createdAt.getTime();
  }
};

export function PipelineTable({ team, items }: { team: string; items: PipelineView[] }) {
  const { rows, header } = useSort<PipelineView, Column>(items, valueOf);
  return (
    <table className="sortable stack-on-phone">
      <thead>
        <tr>
          {header("Pipeline", "id")}
          {header("Status", "status")}
          {header("Rules", "rules", true)}
          {header("Executions", "executions", true)}
          {header("Created", "created")}
          <th aria-label="actions" />
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={p.id} data-testid={`pipeline-${p.id}`}>
            <td>
              <Link href={`/pipelines/${encodeURIComponent(p.id)}`} className="mono">
                {p.id}
              </Link>
            </td>
            <td>
              <StatusBadge status={p.status} />
            </td>
            {/* Under their right-aligned headers: the count, its triggers in the tooltip; the executions by outcome. */}
            <td data-label="rules" className="num" title={[...new Set(p.rules.map((r) => r.trigger.type))].join(", ")}>
              {p.rules.length}
            </td>
            <td className="num">{executionSummary(p.executions) || <span className="muted">none yet</span>}</td>
            <td className="muted">
              <When at={p.createdAt} /> by {p.createdBy}
            </td>
            <td className="actions">
              <PipelineControls team={team} pipeline={p} />
            </td>
          </tr>
        ))}
      </tbody>
      {items.length > 1 && (
        <tfoot>
          <tr data-testid="pipeline-totals">
            <th scope="row" colSpan={2}>
              {items.length} pipelines
            </th>
            <td className="num">{total(items, (p) => p.rules.length)}</td>
            <td className="num">{total(items, executionCount)}</td>
            <td colSpan={2} />
          </tr>
        </tfoot>
      )}
    </table>
  );
}
