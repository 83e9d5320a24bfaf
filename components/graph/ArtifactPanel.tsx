"use client";

import Link from "next/link";
import type { ArtifactGraphNode, GraphEdge } from "@/lib/api/graph.ts";
import { useArtifactHistory } from "@/lib/queries/artifacts.ts";
import { staleReasonText } from "@/lib/stale-reason.ts";
import { ListState } from "../ui/Card.tsx";
import { JsonView } from "../ui/JsonView.tsx";
import { splitKey } from "./flow-elements.ts";

// How a neighbour relates to this artifact, by the kind of edge between them.
const AS_SOURCE: Partial<Record<GraphEdge["kind"], string>> = { derived_from: "feeds", needs_artifact: "needed by" };
const AS_TARGET: Partial<Record<GraphEdge["kind"], string>> = { derived_from: "derived from", output: "output of" };

/** An artifact's current version (read from its history, which records no read) and its neighbours on the canvas. */
export function ArtifactPanel({ team, node, edges, onSelect }: { team: string; node: ArtifactGraphNode; edges: GraphEdge[]; onSelect: (key: string) => void }) {
  const published = node.status !== "unpublished";
  const neighbours = edges.flatMap((e) =>
    e.from === node.key
      ? [{ key: e.to, relation: AS_SOURCE[e.kind] ?? e.kind }]
      : e.to === node.key
        ? [{ key: e.from, relation: AS_TARGET[e.kind] ?? e.kind }]
        : [],
  );

  return (
    <div className="stack" data-testid="artifact-panel">
      <div>
        <h2 className="panel-title mono">{node.id}</h2>
        <div className="row">
          <span className="badge">{node.version === null ? node.status.replace("_", " ") : `v${node.version}`}</span>
          {node.stale && <span className="badge stale">stale</span>}
          <span className="muted">{node.type ?? "type not known yet"}</span>
        </div>
        {node.status === "archived" && <p className="muted">Archived by a team reset; shown because a contract still names it.</p>}
        {node.status === "rolled_back" && <p className="muted">Every version (up to v{node.latestVersion}) was rolled back.</p>}
        {node.version !== null && node.latestVersion > node.version && (
          <p className="muted">
            Current is v{node.version}; v{node.latestVersion} was rolled back.
          </p>
        )}
      </div>
      {node.stale && (
        <section aria-label="why stale">
          <h3>Why stale</h3>
          <ul className="plain">
            {node.staleReasons.map((r) => (
              <li key={JSON.stringify(r)}>{staleReasonText(r)}</li>
            ))}
          </ul>
        </section>
      )}
      {published ? <CurrentVersion team={team} node={node} /> : <p className="empty">Not published yet: the contracts below expect or need it.</p>}
      {neighbours.length > 0 && (
        <section aria-label="on the canvas">
          <h3>On the canvas</h3>
          <ul className="plain">
            {neighbours.map((n) => (
              <li key={`${n.relation} ${n.key}`}>
                {n.relation}{" "}
                <button type="button" className="ghost link" onClick={() => onSelect(n.key)}>
                  {splitKey(n.key).join(" ")}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      {published && (
        <Link href={`/artifacts/${encodeURIComponent(node.id)}?team=${encodeURIComponent(team)}`} data-testid="artifact-page-link">
          Open the artifact page (history, readers, lineage) →
        </Link>
      )}
    </div>
  );
}

function CurrentVersion({ team, node }: { team: string; node: ArtifactGraphNode }) {
  const history = useArtifactHistory(team, node.id);
  const version = history.data?.versions.find((v) => v.version === node.version);
  return (
    <section aria-label="current version">
      <h3>{node.version === null ? "Latest version" : `Version ${node.version}`}</h3>
      <ListState loading={history.isLoading} error={history.error} empty={!!history.data && !version} hint="No active version to show." />
      {version && (
        <>
          <dl className="canvas-facts">
            <dt>Publisher</dt>
            <dd>
              {version.publisher}
              {version.sessionId ? ` (session ${version.sessionId})` : ""}
            </dd>
            <dt>Published</dt>
            <dd>{version.createdAt.toLocaleString()}</dd>
            {version.contractId && (
              <>
                <dt>Contract</dt>
                <dd className="mono">{version.contractId}</dd>
              </>
            )}
            {version.derivedFrom.length > 0 && (
              <>
                <dt>Derived from</dt>
                <dd className="mono">{version.derivedFrom.join(", ")}</dd>
              </>
            )}
            {version.summary && (
              <>
                <dt>Summary</dt>
                <dd>{version.summary}</dd>
              </>
            )}
          </dl>
          <JsonView value={version.data} label={`data of ${node.id}@v${version.version}`} />
        </>
      )}
    </section>
  );
}
