import type { ArtifactView } from "@/lib/api/artifacts.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";

export function ArtifactTable({ items }: { items: ArtifactView[] }) {
  return (
    <table className="stack-on-phone">
      <thead>
        <tr>
          <th>Artifact</th>
          <th>Type</th>
          <th>Version</th>
          <th>Publisher</th>
        </tr>
      </thead>
      <tbody>
        {items.map((a) => (
          <tr key={a.id} data-testid={`artifact-${a.id}`}>
            <td>
              <div className="mono">{a.id}</div>
              {a.name !== a.id && <div className="muted">{a.name}</div>}
            </td>
            <td className="mono">{a.type}</td>
            <td>
              {a.currentVersion ? `v${a.currentVersion}` : "—"}
              {a.status !== "active" && (
                <>
                  {" "}
                  <StatusBadge status={a.status} />
                </>
              )}
            </td>
            <td data-label="by">{a.publisher ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
