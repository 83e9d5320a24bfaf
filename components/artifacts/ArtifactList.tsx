import Link from "next/link";
import type { StaleArtifact } from "@/lib/api/lineage.ts";
import type { ArtifactView } from "@/lib/api/artifacts.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { When } from "../ui/When.tsx";
import { StaleBadge } from "./StaleBadge.tsx";

export const artifactHref = (team: string, id: string, version?: number) =>
  `/artifacts/${encodeURIComponent(id)}?team=${encodeURIComponent(team)}${version ? `&version=${version}` : ""}`;

export function ArtifactList({ team, items, stale }: { team: string; items: ArtifactView[]; stale: Map<string, StaleArtifact> | undefined }) {
  return (
    <table className="stack-on-phone" data-testid="artifact-list">
      <thead>
        <tr>
          <th>Artifact</th>
          <th>Type</th>
          <th>Version</th>
          <th>Status</th>
          <th>Publisher</th>
          <th>Tags</th>
          <th>Updated</th>
        </tr>
      </thead>
      <tbody>
        {items.map((a) => (
          <tr key={a.id} data-testid={`artifact-row-${a.id}`}>
            <td>
              <Link href={artifactHref(team, a.id)} className="mono">
                {a.id}
              </Link>{" "}
              <StaleBadge stale={stale?.get(a.id)} />
              {a.name !== a.id && <div className="muted">{a.name}</div>}
            </td>
            <td className="mono">{a.type}</td>
            <td>
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
