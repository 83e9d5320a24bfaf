"use client";

import {
  Background,
  Controls,
  getNodesBounds,
  getViewportForBounds,
  MiniMap,
  ReactFlow,
  useReactFlow,
  useStore,
  useStoreApi,
  type Connection,
  type IsValidConnection,
  type NodeChange,
  type NodeMouseHandler,
  type Viewport,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type FocusEvent, type MouseEvent } from "react";
import type { CanvasEdge, CanvasNode } from "./flow-elements.ts";
import { isContractNode, isGroupNode } from "./flow-elements.ts";
import type { Frame } from "./grouping.ts";
import { CanvasMinimap } from "./CanvasMinimap.tsx";
import { FrameToggles } from "./FrameToggles.tsx";
import GroupFrames from "./GroupFrames.tsx";
import { nodeTypes } from "./node-types.ts";
import { NodeOverlay } from "./NodeOverlay.tsx";
import OverviewEdges from "./OverviewEdges.tsx";
import { OverviewFocus } from "./OverviewFocus.tsx";
import OverviewNodes, { nodeAt, useBoxPaths } from "./OverviewNodes.tsx";
import { HeldCompact, OVERVIEW_ZOOM, useDetailed, useLabelZoom, useOverview, useViewTiles } from "./use-detailed.ts";
import { useMemberDrop } from "./RosterPanel.tsx";
import { useStaging } from "./use-staging.ts";

/** Zooming out this far keeps 10,000 nodes reachable; fitting stops at 1 so a small graph is not blown up. */
const FIT_VIEW = { maxZoom: 1, minZoom: 0.02, padding: 0.1 };

const minimapColor = (n: CanvasNode) =>
  isGroupNode(n) ? "var(--accent)" : isContractNode(n) ? `var(--${n.data.contract.status})` : n.data.artifact.stale ? "var(--stale)" : "var(--muted)";
const NO_EDGES: CanvasEdge[] = [];
const NO_NODES: CanvasNode[] = [];
const NO_FRAMES: Frame[] = [];
/**
 * xyflow's minimap draws every node as an element, each time it mounts: half a second for 10,000. Past
 * this many nodes the canvas draws its own (CanvasMinimap), from the overview's paths.
 */
const MINIMAP_LIMIT = 1000;
const validConnection: IsValidConnection = (c) => c.source !== c.target && c.target.startsWith("contract:");

type Props = {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  frames: Frame[];
  selected: string | null;
  onSelect: (key: string | null) => void;
  /** A click on a node (not a drag from its handle): the page zooms to it, or expands a group. */
  onNodeClick: (key: string) => void;
  /** The collapse button of an expanded group's frame. */
  onCollapse: (group: string) => void;
  onConnect: (c: Connection) => void;
  onDropMember: (member: string) => void;
};

/**
 * The view fitted to the nodes, worked out before xyflow first draws: its own `fitView` would first
 * draw the graph at zoom 1 and then again fitted, which for a big graph is a second full render.
 */
function fittedViewport(nodes: CanvasNode[], width: number, height: number): Viewport | undefined {
  const shown = nodes.filter((n) => !n.hidden);
  if (!shown.length || !width || !height) return undefined;
  return getViewportForBounds(getNodesBounds(shown), width, height, FIT_VIEW.minZoom, FIT_VIEW.maxZoom, FIT_VIEW.padding);
}

/**
 * Fits the view to `nodes` (those not hidden), at once: an animated fit crossing into or out of the
 * overview would go on animating the xyflow that the crossing replaces. Not xyflow's `fitView`, which fits what it holds, and
 * zoomed out to the overview it holds no nodes.
 * @example const fit = useFitView(nodes); <button onClick={fit}>Fit view</button>
 */
export function useFitView(nodes: CanvasNode[]): () => void {
  const store = useStoreApi<CanvasNode, CanvasEdge>();
  const { setViewport } = useReactFlow();
  return useCallback(() => {
    const { width, height } = store.getState();
    const viewport = fittedViewport(nodes, width, height);
    if (viewport) void setViewport(viewport);
  }, [nodes, store, setViewport]);
}

/**
 * The graph itself. Positions come from the layout and never from dragging (nodes are not
 * draggable: the hub stores no positions). The viewport is fitted once, when the graph first has
 * nodes; later updates change nodes and edges but leave the viewport where the person put it.
 * Zoomed out too far to read, edges are drawn as an overview instead of one component each.
 */
export function GraphCanvas(props: Props) {
  // The first viewport needs the size of the box the canvas fills, so the canvas waits one frame for it.
  const [first, setFirst] = useState<{ viewport: Viewport | undefined } | null>(null);
  const store = useStoreApi<CanvasNode, CanvasEdge>();
  const measure = useCallback(
    (box: HTMLDivElement | null) => {
      if (!box || first) return;
      const viewport = fittedViewport(props.nodes, box.clientWidth, box.clientHeight);
      // xyflow learns its nodes and its size in effects after its first render, so the nodes in view would
      // be added to a list already on the page, and React places each added sibling by walking the others:
      // quadratic, 1.8 s for 1,200 nodes. Told both now, it draws them with the list, in one placement.
      store.setState({ width: box.clientWidth, height: box.clientHeight, ...(viewport && { transform: [viewport.x, viewport.y, viewport.zoom] }) });
      store.getState().setNodes(viewport && viewport.zoom < OVERVIEW_ZOOM ? NO_NODES : props.nodes);
      setFirst({ viewport });
    },
    [props.nodes, first, store],
  );
  if (!first) return <div ref={measure} className="canvas-measure" />;
  return <Flow {...props} initialViewport={first.viewport} />;
}

const nodeKeyOf = (e: FocusEvent) => (e.target as HTMLElement).closest?.(".react-flow__node")?.getAttribute("data-id") ?? null;

function Flow({
  nodes,
  edges,
  frames,
  selected,
  onSelect,
  onNodeClick,
  onCollapse,
  onConnect,
  onDropMember,
  initialViewport,
}: Props & { initialViewport: Viewport | undefined }) {
  const detailed = useDetailed();
  // Counted in xyflow's store, not in `nodes`: a minimap mounting with a new, small `nodes` would first
  // draw the store's old nodes, all 10,000 of them, before xyflow takes in the new ones.
  const smallGraph = useStore((s) => s.nodes.length <= MINIMAP_LIMIT) && nodes.length <= MINIMAP_LIMIT;
  const labelZoom = useLabelZoom();
  const overview = useOverview();
  const { screenToFlowPosition } = useReactFlow();
  const store = useStoreApi<CanvasNode, CanvasEdge>();
  const { shown, compact, held } = useStaging(nodes);
  const pointed = (e: MouseEvent) => {
    const at = screenToFlowPosition({ x: e.clientX, y: e.clientY });
    // Boxes are a few pixels wide out here: a pointer within 3 px of one points at it.
    return nodeAt(nodes, at.x, at.y, 3 / store.getState().transform[2])?.id ?? null;
  };
  const byKey = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const groups = useMemo(() => nodes.filter((n) => isGroupNode(n) && !n.hidden), [nodes]);
  // Built here, once per set of nodes, for the overview and the big graph's minimap.
  const paths = useBoxPaths(nodes, overview || nodes.length > MINIMAP_LIMIT);
  const tiles = useViewTiles();
  // Zoomed in, xyflow draws the edges that touch a node near the view (it would draw every edge whose box
  // crosses the view: 800 for the 117 nodes of a view of the 10,000-node graph, 300 ms to mount); the
  // overview drawing keeps the others, in a few paths.
  const [near, far] = useMemo(() => {
    if (!detailed) return [NO_EDGES, edges];
    const [left, top, right, bottom] = tiles.split(",").map(Number);
    const inView = (id: string) => {
      const p = byKey.get(id)?.position;
      return !!p && p.x >= left && p.x <= right && p.y >= top && p.y <= bottom;
    };
    const split: [CanvasEdge[], CanvasEdge[]] = [[], []];
    for (const e of edges) split[inView(e.source) || inView(e.target) ? 0 : 1].push(e);
    return split;
  }, [detailed, tiles, byKey, edges]);
  // An edge to a node held back would find no handle to end at: it comes with its node.
  const drawnEdges = useMemo(() => (held ? near.filter((e) => !held(e.source) && !held(e.target)) : near), [near, held]);
  const [hovered, setHovered] = useState<string | null>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const [wasOverview, setWasOverview] = useState(overview);
  if (wasOverview !== overview) {
    setWasOverview(overview);
    // The elements that had focus or the pointer are gone, without blur or leave events.
    setFocused(null);
    setHovered(null);
  }
  const onEnter: NodeMouseHandler<CanvasNode> = useCallback((_, n) => setHovered(n.id), []);
  const onLeave: NodeMouseHandler<CanvasNode> = useCallback(() => setHovered(null), []);
  const onClick: NodeMouseHandler<CanvasNode> = useCallback((_, n) => onNodeClick(n.id), [onNodeClick]);
  const domNode = useStore((s) => s.domNode);
  // Selection is ours (controlled nodes): xyflow only reports clicks and keyboard selection.
  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      const selections = changes.filter((c) => c.type === "select");
      if (selections.length) onSelect(selections.find((c) => c.selected)?.id ?? null);
    },
    [onSelect],
  );
  const { onDragOver, onDrop } = useMemberDrop(onDropMember);
  // Enter in the overview zooms in to the node, which is then an element again: the keyboard goes on from it.
  const refocus = useRef<string | null>(null);
  const activate = useCallback(
    (key: string) => {
      if (!isGroupNode(byKey.get(key)!)) refocus.current = key;
      onNodeClick(key);
    },
    [byKey, onNodeClick],
  );
  useEffect(() => {
    const key = refocus.current;
    if (overview || !key || !domNode) return;
    let frames = 0;
    let frame = 0;
    // xyflow places the nodes in view a frame or two after it mounts.
    const look = () => {
      const element = domNode.querySelector<HTMLElement>(`.react-flow__node[data-id="${CSS.escape(key)}"]`);
      if (element || ++frames > 30) refocus.current = null;
      if (element) element.focus({ preventScroll: true });
      else if (refocus.current) frame = requestAnimationFrame(look);
    };
    frame = requestAnimationFrame(look);
    return () => cancelAnimationFrame(frame);
  }, [overview, domNode]);

  return (
    <HeldCompact.Provider value={compact}>
      <ReactFlow<CanvasNode, CanvasEdge>
        nodes={overview ? NO_NODES : shown}
        edges={drawnEdges}
        nodeTypes={nodeTypes}
        onNodesChange={onNodesChange}
        onNodeClick={onClick}
        onNodeMouseEnter={onEnter}
        onNodeMouseLeave={onLeave}
        onPaneClick={(e) => {
          const key = overview ? pointed(e) : null;
          if (key) onNodeClick(key);
        }}
        onPaneMouseMove={(e) => overview && setHovered(pointed(e))}
        onPaneMouseLeave={() => setHovered(null)}
        onFocus={(e) => setFocused(nodeKeyOf(e))}
        onBlur={() => setFocused(null)}
        onConnect={onConnect}
        isValidConnection={validConnection}
        onDragOver={onDragOver}
        onDrop={onDrop}
        nodesDraggable={false}
        edgesFocusable={false}
        edgesReconnectable={false}
        deleteKeyCode={null}
        multiSelectionKeyCode={null}
        selectionKeyCode={null}
        onlyRenderVisibleElements
        defaultViewport={initialViewport}
        fitView={!initialViewport}
        fitViewOptions={FIT_VIEW}
        minZoom={FIT_VIEW.minZoom}
        maxZoom={2}
        aria-label="canvas of contracts and artifacts"
        className={overview ? "overview" : undefined}
        style={{ "--label-zoom": labelZoom || 1 } as CSSProperties}
      >
        <Background gap={24} />
        {frames.length > 0 && <GroupFrames frames={frames} />}
        <NodeOverlay
          nodes={byKey}
          selected={selected}
          focused={focused}
          hovered={hovered}
          named={overview ? groups : NO_NODES}
          frames={overview ? frames : NO_FRAMES}
        />
        {far.length > 0 && <OverviewEdges byKey={byKey} edges={far} />}
        {overview && paths && <OverviewNodes paths={paths} />}
        {overview && <OverviewFocus nodes={nodes} byKey={byKey} selected={selected} onFocusKey={setFocused} onActivate={activate} />}
        {paths && paths.count > 0 && nodes.length > MINIMAP_LIMIT && <CanvasMinimap paths={paths} />}
        {!overview && smallGraph && <MiniMap<CanvasNode> pannable zoomable nodeColor={minimapColor} ariaLabel="minimap" style={{ width: 160, height: 110 }} />}
        {frames.length > 0 && <FrameToggles frames={frames} onCollapse={onCollapse} />}
        <Controls showInteractive={false} showFitView={false} />
      </ReactFlow>
    </HeldCompact.Provider>
  );
}
