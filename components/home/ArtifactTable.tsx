"use client";

import type { ArtifactView } from "@/lib/api/artifacts.ts";
import { ArtifactLink, MemberLink } from "../ui/EntityLink.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

type Column = "id" | "type" | "version" | "publisher";

const valueOf = (a: ArtifactView, key: Column): SortValue => (key === "version" ? a.currentVersion : a[key]);

export function ArtifactTable({ items }: { items: ArtifactView[] }) {
  const { rows, header } = useSort<ArtifactView, Column>(items, valueOf);
  return (
    <div className="table-scroll">
      <table className="sortable stack-on-phone">
        <thead>
          <tr>
            {header("Artifact", "id")}
            {header("Type", "type")}
            {header("Version", "version", true)}
            {header("Publisher", "publisher")}
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id} data-testid={`artifact-${a.id}`}>
              <td>
                <ArtifactLink id={a.id} className="mono clip-line" />
                {a.name !== a.id && (
                  <div className="muted clip-line" title={a.name}>
                    {a.name}
                  </div>
                )}
              </td>
              <td className="mono">{a.type}</td>
              <td className="num">
                {a.currentVersion ? `v${a.currentVersion}` : "—"}
                {a.status !== "active" && (
                  <>
                    {" "}
                    <StatusBadge status={a.status} />
                  </>
                )}
              </td>
              <td data-label="by">{a.publisher ? <MemberLink team={a.team} name={a.publisher} /> : "—"}</td>
            </tr>
          ))}
        </tbody>
        {items.length > 1 && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={4}>
                {items.length} artifacts
              </th>
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
