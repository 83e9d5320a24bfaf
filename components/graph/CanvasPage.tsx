"use client";

import { ReactFlowProvider, useReactFlow, type Connection } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useGraph, useDependencyChange } from "@/lib/queries/graph.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { ArtifactPanel } from "./ArtifactPanel.tsx";
import { CanvasFilters } from "./CanvasFilters.tsx";
import { ContractPanel } from "./ContractPanel.tsx";
import { dependencyFor, NO_FILTERS, splitKey, type Filters } from "./flow-elements.ts";
import { FIT_VIEW, GraphCanvas } from "./GraphCanvas.tsx";
import { Legend } from "./Legend.tsx";
import { NewContractDialog } from "./NewContractDialog.tsx";
import { RosterPanel } from "./RosterPanel.tsx";
import { useFlowElements } from "./use-flow-elements.ts";

type Notice = { kind: "error" | "ok"; text: string };

/** One canvas per team: switching teams starts a fresh one, fitted to that team's graph. */
export function CanvasPage() {
  const { team } = useTeam();
  return (
    <ReactFlowProvider key={team}>
      <TeamCanvas team={team} />
    </ReactFlowProvider>
  );
}

function TeamCanvas({ team }: { team: string }) {
  const graph = useGraph(team);
  const { mutate: addDependency } = useDependencyChange(team);
  const { fitView, setCenter, getZoom } = useReactFlow();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selected, setSelected] = useState<string | null>(null);
  const [draftFor, setDraftFor] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [focus, setFocus] = useState<string | null>(null);

  const view = graph.data;
  const { nodes, edges } = useFlowElements(view, filters, selected);

  const onConnect = useCallback(
    (c: Connection) => {
      const wanted = dependencyFor(c.source, c.target);
      if ("refused" in wanted) return setNotice({ kind: "error", text: wanted.refused });
      const on = wanted.dependency.type === "contract" ? wanted.dependency.contractId : wanted.dependency.artifactId;
      setNotice(null);
      addDependency(
        { id: wanted.contract, dependency: wanted.dependency },
        {
          onSuccess: () => setNotice({ kind: "ok", text: `${wanted.contract} now depends on ${wanted.dependency.type} ${on}` }),
          onError: (e) => setNotice({ kind: "error", text: `Refused: ${e.message}` }),
        },
      );
    },
    [addDependency],
  );
  // Bringing a node into view is the only viewport move besides fitting, and only when the person asked for that node.
  useEffect(() => {
    const target = focus ? nodes.find((n) => n.id === focus) : undefined;
    if (!target) return;
    setFocus(null);
    void setCenter(target.position.x + target.width! / 2, target.position.y + target.height! / 2, { zoom: Math.max(getZoom(), 0.5), duration: 200 });
  }, [focus, nodes, setCenter, getZoom]);
  const show = useCallback((key: string) => {
    setSelected(key);
    setFocus(key);
  }, []);
  const onCreated = useCallback(
    (id: string) => {
      setDraftFor(null);
      show(`contract:${id}`);
      setNotice({ kind: "ok", text: `created contract ${id}` });
    },
    [show],
  );

  // A link such as the overview's failed contracts (`/canvas?contract=<id>`) opens on that contract.
  const [linked, setLinked] = useState<string | null>(null);
  useEffect(() => {
    const id = new URLSearchParams(window.location.search).get("contract");
    if (id) setLinked(`contract:${id}`);
  }, []);
  useEffect(() => {
    if (!linked || !view?.nodes.some((n) => n.key === linked)) return;
    setLinked(null);
    show(linked);
  }, [linked, view, show]);

  const node = selected ? view?.nodes.find((n) => n.key === selected) : undefined;
  const contracts = useMemo(() => (view?.nodes ?? []).flatMap((n) => (n.kind === "contract" ? [n] : [])), [view]);

  return (
    <div className="canvas-page">
      <div className="toolbar canvas-toolbar">
        <h1 className="page-title">Canvas</h1>
        {view && (
          <span className="muted" data-testid="canvas-counts">
            {contracts.length} contracts · {view.nodes.length - contracts.length} artifacts · {view.edges.length} links
          </span>
        )}
        <span className="spacer" />
        <button type="button" onClick={() => void fitView(FIT_VIEW)} data-testid="fit-view">
          Fit view
        </button>
        <button type="button" className="primary" onClick={() => setDraftFor("")}>
          New contract
        </button>
      </div>
      <div className="canvas-body">
        <aside className="canvas-side">
          {view && <CanvasFilters nodes={view.nodes} filters={filters} onChange={setFilters} />}
          <RosterPanel team={team} contracts={contracts} onNewContract={setDraftFor} />
          <Legend />
        </aside>
        <div className="canvas" data-testid="canvas" data-nodes={view?.nodes.length ?? 0} data-edges={view?.edges.length ?? 0}>
          {notice && (
            <div
              className={`canvas-notice ${notice.kind}`}
              role={notice.kind === "error" ? "alert" : "status"}
              data-testid={notice.kind === "error" ? "canvas-error" : "canvas-notice"}
            >
              <span>{notice.text}</span>
              <button type="button" className="ghost" aria-label="dismiss" onClick={() => setNotice(null)}>
                ×
              </button>
            </div>
          )}
          {graph.isLoading && <p className="canvas-overlay">Loading the graph…</p>}
          {graph.error && (
            <p className="canvas-overlay error" role="alert">
              Could not load the graph: {(graph.error as Error).message}
            </p>
          )}
          {view && view.nodes.length === 0 && (
            <p className="canvas-overlay" data-testid="canvas-empty">
              Nothing in team <strong>{team}</strong> yet. Drag a member from the roster here to give them a contract, or publish an artifact.
            </p>
          )}
          {view && <GraphCanvas nodes={nodes} edges={edges} onSelect={setSelected} onConnect={onConnect} onDropMember={setDraftFor} />}
        </div>
        {node && (
          <aside className="canvas-panel" aria-label={`details of ${splitKey(node.key).join(" ")}`} data-testid="canvas-panel">
            <button type="button" className="ghost canvas-panel-close" aria-label="close details" onClick={() => setSelected(null)}>
              ×
            </button>
            {node.kind === "contract" ? (
              <ContractPanel key={node.key} team={team} node={node} onSelect={show} />
            ) : (
              <ArtifactPanel key={node.key} team={team} node={node} edges={view?.edges ?? []} onSelect={show} />
            )}
          </aside>
        )}
      </div>
      <NewContractDialog team={team} assignee={draftFor} onClose={() => setDraftFor(null)} onCreated={onCreated} />
    </div>
  );
}
