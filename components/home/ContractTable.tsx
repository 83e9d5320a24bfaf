"use client";

import type { ContractView } from "@/lib/api/contracts.ts";
import { ContractLink, MemberLink } from "../ui/EntityLink.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";

type Column = "id" | "assignee" | "status" | "retries" | "why";

const valueOf = (c: ContractView, key: Column): SortValue => {
  switch (key) {
    case "id":
    case "assignee":
    case "status":
      return c[key];
    case "retries":
      return c.retryCount;
    case "why":
      return c.statusReason;
  }
};

export function ContractTable({ items }: { items: ContractView[] }) {
  const { rows, header } = useSort<ContractView, Column>(items, valueOf);
  return (
    <div className="table-scroll">
      <table className="sortable stack-on-phone">
        <thead>
          <tr>
            {header("Contract", "id")}
            {header("Assignee", "assignee")}
            {header("Status", "status")}
            {header("Retries", "retries", true)}
            {header("Why", "why")}
          </tr>
        </thead>
        <tbody>
          {rows.map((c) => (
            <tr key={c.id} data-testid={`contract-${c.id}`}>
              <td>
                <ContractLink id={c.id} className="mono clip-line" />
                <div className="muted clip-line" title={c.title}>
                  {c.title}
                </div>
              </td>
              <td data-label="assignee">
                <MemberLink team={c.team} name={c.assignee} />
              </td>
              <td>
                <StatusBadge status={c.status} />
              </td>
              <td className="num">{c.retryCount || ""}</td>
              <td className="muted">
                <div className="clip-line" title={c.statusReason ?? undefined}>
                  {c.statusReason ?? ""}
                </div>
              </td>
            </tr>
          ))}
        </tbody>
        {items.length > 1 && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                {items.length} contracts
              </th>
              <td className="num">{total(items, (c) => c.retryCount) || ""}</td>
              <td />
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
