"use client";

import type { TeamSummary } from "@/lib/api/overview.ts";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";

type Column = "id" | "artifacts" | "contracts" | "events";
const valueOf = (t: TeamSummary, key: Column): SortValue => t[key];

/** Every team on the hub with what it holds, sortable, with the hub's totals. */
export function TeamTable({ items }: { items: TeamSummary[] }) {
  const { rows, header } = useSort<TeamSummary, Column>(items, valueOf);
  return (
    <table className="sortable" data-testid="team-table">
      <thead>
        <tr>
          {header("Team", "id")}
          {header("Artifacts", "artifacts", true)}
          {header("Contracts", "contracts", true)}
          {header("Events", "events", true)}
        </tr>
      </thead>
      <tbody>
        {rows.map((t) => (
          <tr key={t.id}>
            <td className="mono">
              {t.id}
              {t.archived && <span className="muted"> (archived)</span>}
            </td>
            <td className="num">{t.artifacts}</td>
            <td className="num">{t.contracts}</td>
            <td className="num">{t.events}</td>
          </tr>
        ))}
      </tbody>
      {items.length > 1 && (
        <tfoot>
          <tr>
            <th scope="row">{items.length} teams</th>
            <td className="num">{total(items, (t) => t.artifacts)}</td>
            <td className="num">{total(items, (t) => t.contracts)}</td>
            <td className="num">{total(items, (t) => t.events)}</td>
          </tr>
        </tfoot>
      )}
    </table>
  );
}
