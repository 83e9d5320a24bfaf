"use client";

import Link from "next/link";
import type { VersionView } from "@/lib/api/artifacts.ts";
import { useSessions } from "@/lib/queries/sessions.ts";
import { CodeRefLink } from "../code/CodeRefLink.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { When } from "../ui/When.tsx";

/**
 * Every version, newest first; choosing one shows its data and lineage. A Code column when a work-tree session
 * published one. A publisher that is one of the team's sessions links to its page, a contract to the canvas.
 */
export function VersionHistory({
  team,
  versions,
  selected,
  onSelect,
}: {
  team: string;
  versions: VersionView[];
  selected: number;
  onSelect: (v: number) => void;
}) {
  const withCode = versions.some((v) => v.code !== null);
  const sessions = new Set((useSessions(team).data ?? []).map((s) => s.name));
  return (
    <table className="stack-on-phone" data-testid="versions">
      <thead>
        <tr>
          <th>Version</th>
          <th>Status</th>
          <th>Publisher</th>
          <th>Session</th>
          <th>Contract</th>
          <th>Published</th>
          {withCode && <th>Code</th>}
          <th>Summary</th>
        </tr>
      </thead>
      <tbody>
        {[...versions].reverse().map((v) => (
          <tr key={v.version} className={v.version === selected ? "selected" : undefined} data-testid={`version-${v.version}`}>
            <td>
              <button
                type="button"
                className="version-pick mono"
                aria-pressed={v.version === selected}
                aria-label={`show v${v.version}`}
                onClick={() => onSelect(v.version)}
              >
                v{v.version}
              </button>
            </td>
            <td>
              <StatusBadge status={v.status} />
            </td>
            <td data-label="by">
              {sessions.has(v.publisher) ? <Link href={`/sessions/${encodeURIComponent(v.publisher)}`}>{v.publisher}</Link> : v.publisher}
            </td>
            <td className="mono" data-label="session">
              {v.sessionId ?? "—"}
            </td>
            <td className="mono" data-label="contract">
              {v.contractId ? <Link href={`/canvas?contract=${encodeURIComponent(v.contractId)}`}>{v.contractId}</Link> : "—"}
            </td>
            <td>
              <When at={v.createdAt} />
            </td>
            {withCode && <td>{v.code && <CodeRefLink code={v.code} />}</td>}
            <td className="muted">{v.summary || "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
