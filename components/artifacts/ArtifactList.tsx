"use client";

import Link from "next/link";
import type { StaleArtifact } from "@/lib/api/lineage.ts";
import type { ArtifactView } from "@/lib/api/artifacts.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";
import { When } from "../ui/When.tsx";
import { StaleBadge } from "./StaleBadge.tsx";

export const artifactHref = (team: string, id: string, version?: number) =>
  `/artifacts/${encodeURIComponent(id)}?team=${encodeURIComponent(team)}${version ? `&version=${version}` : ""}`;

type Column = "id" | "type" | "version" | "status" | "publisher" | "updated";

const valueOf = (a: ArtifactView, key: Column): SortValue => {
  switch (key) {
    case "id":
    case "type":
    case "status":
    case "publisher":
      return a[key];
    case "version":
      return a.latestVersion;
    case "updated":
      return a.updatedAt.getTime();
  }
};

/** The loaded artifacts, sorted by a clicked column (the loaded ones only: "Load more" fetches the rest in the hub's order). */
export function ArtifactList({ team, items, stale }: { team: string; items: ArtifactView[]; stale: Map<string, StaleArtifact> | undefined }) {
  const { rows, header } = useSort<ArtifactView, Column>(items, valueOf);
  return (
    <table data-testid="artifact-list" className="sortable stack-on-phone">
      <thead>
        <tr>
          {header("Artifact", "id")}
          {header("Type", "type")}
          {header("Version", "version", true)}
          {header("Status", "status")}
          {header("Publisher", "publisher")}
          <th>Tags</th>
          {header("Updated", "updated", true)}
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.id} data-testid={`artifact-row-${a.id}`}>
            <td>
              <Link href={artifactHref(team, a.id)} className="mono">
                {a.id}
              </Link>{" "}
              <StaleBadge stale={stale?.get(a.id)} />
              {a.name !== a.id && <div className="muted">{a.name}</div>}
            </td>
            <td className="mono">{a.type}</td>
            <td className="num">
              v{a.latestVersion}
              {a.currentVersion !== a.latestVersion && <span className="muted"> (current: {a.currentVersion ? `v${a.currentVersion}` : "none"})</span>}
            </td>
            <td>
              <StatusBadge status={a.status} />
            </td>
            <td data-label="by">{a.publisher ?? "—"}</td>
            <td>
              {a.tags.map((t) => (
                <span key={t} className="tag">
                  {t}
                </span>
              ))}
            </td>
            <td>
              <When at={a.updatedAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
