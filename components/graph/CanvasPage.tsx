"use client";

import { ReactFlowProvider, useReactFlow, type Connection } from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useGraph, useDependencyChange } from "@/lib/queries/graph.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { ArtifactPanel } from "./ArtifactPanel.tsx";
import { CanvasFilters } from "./CanvasFilters.tsx";
import { CanvasGroups } from "./CanvasGroups.tsx";
import { CanvasSearch } from "./CanvasSearch.tsx";
import { ContractPanel } from "./ContractPanel.tsx";
import { dependencyFor, NO_FILTERS, splitKey, type Filters } from "./flow-elements.ts";
import { GraphCanvas, useFitView } from "./GraphCanvas.tsx";
import { indexGraph, lineageOf, subView, type Depth } from "./graph-index.ts";
import { collapse, groupsOf, type GroupBy, type ShownView } from "./grouping.ts";
import { Legend } from "./Legend.tsx";
import { LineageBar } from "./LineageBar.tsx";
import { NewContractDialog } from "./NewContractDialog.tsx";
import { RosterPanel, useMemberDrop } from "./RosterPanel.tsx";
import { GetStarted } from "../start/GetStarted.tsx";
import { StartMemberDialog } from "../start/StartMemberDialog.tsx";
import { coveredBelow } from "./panel-cover.ts";
import { OVERVIEW_ZOOM } from "./use-detailed.ts";
import { useFlowElements } from "./use-flow-elements.ts";

type Notice = { kind: "error" | "ok"; text: string };

/** Centring on a node zooms in at least this far: its box shows its text there. */
const READ_ZOOM = 0.8;

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
  const { setCenter, getZoom } = useReactFlow();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [selected, setSelected] = useState<string | null>(null);
  const [draftFor, setDraftFor] = useState<string | null>(null);
  const [memberOpen, setMemberOpen] = useState(false);
  const memberDrop = useMemberDrop(setDraftFor);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [centreOn, setCentreOn] = useState<string | null>(null);
  const canvasBox = useRef<HTMLDivElement>(null);
  const panelBox = useRef<HTMLElement>(null);
  const [lineage, setLineage] = useState<{ key: string; depth: Depth } | null>(null);
  const [groupBy, setGroupBy] = useState<GroupBy | null>(null);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  // Focusing and grouping change what is drawn, so the view is fitted to the new drawing once it is there.
  const [refit, setRefit] = useState(false);

  const view = graph.data;
  // Built when first needed (the search box focused, a lineage asked for), not before the first drawing.
  const [indexWanted, setIndexWanted] = useState(false);
  const wantIndex = useCallback(() => setIndexWanted(true), []);
  const index = useMemo(() => (view && (indexWanted || lineage) ? indexGraph(view) : null), [view, indexWanted, lineage]);
  const groups = useMemo(() => (view && groupBy ? groupsOf(view, groupBy) : null), [view, groupBy]);
  const focusKeys = useMemo(() => (index && lineage ? lineageOf(index, lineage.key, lineage.depth) : null), [index, lineage]);
  const shown: ShownView | undefined = useMemo(() => {
    if (!view) return undefined;
    const focused = focusKeys?.size ? subView(view, focusKeys) : view;
    return groupBy && groups ? collapse(focused, groupBy, groups, expanded) : focused;
  }, [view, focusKeys, groupBy, groups, expanded]);
  const grouping = useMemo(() => (groupBy && groups ? { by: groupBy, groups } : null), [groupBy, groups]);
  // Links drawn since the last layout keep every node in place (docs/canvas.md#layout); tidying lays it out anew.
  const [tidied, setTidied] = useState(0);
  const { nodes, edges, frames } = useFlowElements(shown, filters, selected, grouping, tidied);
  const fitView = useFitView(nodes);

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
    const target = centreOn ? nodes.find((n) => n.id === centreOn) : undefined;
    if (!target) return;
    setCentreOn(null);
    // From the overview in one step: an animation would pass through zooms that place hundreds of nodes on the way.
    const duration = getZoom() < OVERVIEW_ZOOM ? 0 : 200;
    const zoom = Math.max(getZoom(), READ_ZOOM);
    // In the middle of what the panel leaves visible.
    const covered = coveredBelow(canvasBox.current?.getBoundingClientRect(), panelBox.current?.getBoundingClientRect());
    void setCenter(target.position.x + target.width! / 2, target.position.y + target.height! / 2 + covered / 2 / zoom, { zoom, duration });
  }, [centreOn, nodes, setCenter, getZoom]);
  // Waits for something to fit: after the Quick Start demo the graph is fetched after the ask.
  useEffect(() => {
    if (!refit || nodes.length === 0) return;
    setRefit(false);
    fitView();
  }, [refit, fitView, nodes.length]);
  /**
   * Selects a node and brings it into view, first drawing it if the canvas hides it: a lineage it is
   * not part of is left for the whole graph, a collapsed group holding it is expanded.
   */
  const show = useCallback(
    (key: string) => {
      if (focusKeys && !focusKeys.has(key)) setLineage(null);
      const group = groups?.get(key);
      if (group !== undefined && !expanded.has(group)) setExpanded(new Set(expanded).add(group));
      setSelected(key);
      setCentreOn(key);
    },
    [focusKeys, groups, expanded],
  );
  const onNodeClick = useCallback(
    (key: string) => {
      const [kind, name] = splitKey(key);
      if (kind === "group") {
        setExpanded(new Set(expanded).add(name));
        return setSelected(null);
      }
      // Selected here too: a click in the overview reaches no element for xyflow to select.
      setSelected(key);
      setCentreOn(key);
    },
    [expanded],
  );
  // Enter on a collapsed group's box selects it for xyflow; for a person it is the click that expands it.
  const onSelect = useCallback((key: string | null) => (key && splitKey(key)[0] === "group" ? onNodeClick(key) : setSelected(key)), [onNodeClick]);
  const onCollapse = useCallback(
    (group: string) => {
      const next = new Set(expanded);
      next.delete(group);
      setExpanded(next);
    },
    [expanded],
  );
  const focusOn = useCallback((key: string, depth: Depth) => {
    setLineage({ key, depth });
    setRefit(true);
  }, []);
  const onGroupBy = useCallback((by: GroupBy | null) => {
    setGroupBy(by);
    setExpanded(new Set());
    setRefit(true);
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
        {view && <CanvasSearch index={index} onFocus={wantIndex} onPick={show} />}
        <button
          type="button"
          onClick={() => setTidied((t) => t + 1)}
          data-testid="tidy-layout"
          title="Lay the graph out again, taking in the links drawn since"
        >
          Tidy layout
        </button>
        <button type="button" onClick={fitView} data-testid="fit-view">
          Fit view
        </button>
        <button type="button" className="primary" onClick={() => setDraftFor("")}>
          New contract
        </button>
      </div>
      <div className="canvas-body">
        <aside className="canvas-side">
          {view && <CanvasFilters nodes={view.nodes} filters={filters} onChange={setFilters} />}
          {view && <CanvasGroups by={groupBy} groups={groups} expanded={expanded} onBy={onGroupBy} onExpanded={setExpanded} />}
          <RosterPanel team={team} contracts={contracts} onNewContract={setDraftFor} onStartMember={() => setMemberOpen(true)} />
          <Legend />
        </aside>
        <div ref={canvasBox} className="canvas" data-testid="canvas" data-nodes={view?.nodes.length ?? 0} data-edges={view?.edges.length ?? 0}>
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
          {lineage && focusKeys && (
            <LineageBar
              id={splitKey(lineage.key)[1]}
              depth={lineage.depth}
              count={focusKeys.size}
              onDepth={(depth) => focusOn(lineage.key, depth)}
              onExit={() => {
                setLineage(null);
                setRefit(true);
              }}
            />
          )}
          {graph.isLoading && <p className="canvas-overlay">Loading the graph…</p>}
          {graph.error && (
            <p className="canvas-overlay error" role="alert">
              Could not load the graph: {(graph.error as Error).message}
            </p>
          )}
          {view && view.nodes.length === 0 && (
            <div className="canvas-overlay canvas-empty" data-testid="canvas-empty" {...memberDrop}>
              <p>
                Nothing in team <strong>{team}</strong> yet. Drag a member from the roster here to give them a contract, or:
              </p>
              <GetStarted team={team} onStartMember={() => setMemberOpen(true)} onNewContract={() => setDraftFor("")} onDemo={() => setRefit(true)} />
            </div>
          )}
          {view && (
            <GraphCanvas
              nodes={nodes}
              edges={edges}
              frames={frames}
              selected={selected}
              onSelect={onSelect}
              onNodeClick={onNodeClick}
              onCollapse={onCollapse}
              onConnect={onConnect}
              onDropMember={setDraftFor}
            />
          )}
        </div>
        {node && (
          <aside ref={panelBox} className="canvas-panel" aria-label={`details of ${splitKey(node.key).join(" ")}`} data-testid="canvas-panel">
            <button type="button" className="ghost canvas-panel-close" aria-label="close details" onClick={() => setSelected(null)}>
              ×
            </button>
            <div className="row canvas-panel-lineage">
              <button type="button" onClick={() => focusOn(node.key, lineage?.key === node.key ? lineage.depth : 2)} data-testid="focus-lineage">
                Focus on lineage
              </button>
            </div>
            {node.kind === "contract" ? (
              <ContractPanel key={node.key} team={team} node={node} onSelect={show} />
            ) : (
              <ArtifactPanel key={node.key} team={team} node={node} edges={view?.edges ?? []} onSelect={show} />
            )}
          </aside>
        )}
      </div>
      <NewContractDialog team={team} assignee={draftFor} onClose={() => setDraftFor(null)} onCreated={onCreated} />
      <StartMemberDialog team={team} open={memberOpen} onClose={() => setMemberOpen(false)} />
    </div>
  );
}
