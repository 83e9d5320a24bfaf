"use client";

import {
  Background,
  Controls,
  getNodesBounds,
  getViewportForBounds,
  MiniMap,
  ReactFlow,
  useStore,
  useUpdateNodeInternals,
  type Connection,
  type IsValidConnection,
  type NodeChange,
  type NodeMouseHandler,
  type Viewport,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import { useCallback, useEffect, useMemo, useState, type DragEvent, type FocusEvent } from "react";
import type { CanvasEdge, CanvasNode } from "./flow-elements.ts";
import { isContractNode, isGroupNode } from "./flow-elements.ts";
import { nodeTypes } from "./node-types.ts";
import { NodeOverlay } from "./NodeOverlay.tsx";
import OverviewEdges from "./OverviewEdges.tsx";
import { useDetailed } from "./use-detailed.ts";
import { MEMBER_MIME } from "./RosterPanel.tsx";

/** Zooming out this far keeps 2,000 nodes reachable; fitting stops at 1 so a small graph is not blown up. */
export const FIT_VIEW = { maxZoom: 1, minZoom: 0.05, padding: 0.1 };

const minimapColor = (n: CanvasNode) =>
  isGroupNode(n) ? "var(--accent)" : isContractNode(n) ? `var(--${n.data.contract.status})` : n.data.artifact.stale ? "var(--stale)" : "var(--muted)";
const NO_EDGES: CanvasEdge[] = [];
const validConnection: IsValidConnection = (c) => c.source !== c.target && c.target.startsWith("contract:");

type Props = {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  selected: string | null;
  onSelect: (key: string | null) => void;
  /** A click on a node (not a drag from its handle): the page zooms to it, or expands a group. */
  onNodeClick: (key: string) => void;
  onConnect: (c: Connection) => void;
  onDropMember: (member: string) => void;
};

/**
 * The view fitted to the nodes, worked out before xyflow first draws: its own `fitView` would first
 * draw the graph at zoom 1 and then again fitted, which for a big graph is a second full render.
 */
function fittedViewport(nodes: CanvasNode[], box: HTMLElement): Viewport | undefined {
  const shown = nodes.filter((n) => !n.hidden);
  if (!shown.length || !box.clientWidth || !box.clientHeight) return undefined;
  return getViewportForBounds(getNodesBounds(shown), box.clientWidth, box.clientHeight, FIT_VIEW.minZoom, FIT_VIEW.maxZoom, FIT_VIEW.padding);
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
  const measure = useCallback(
    (box: HTMLDivElement | null) => {
      if (box) setFirst((f) => f ?? { viewport: fittedViewport(props.nodes, box) });
    },
    [props.nodes],
  );
  if (!first) return <div ref={measure} className="canvas-measure" />;
  return <Flow {...props} initialViewport={first.viewport} />;
}

const nodeKeyOf = (e: FocusEvent) => (e.target as HTMLElement).closest?.(".react-flow__node")?.getAttribute("data-id") ?? null;

function Flow({ nodes, edges, selected, onSelect, onNodeClick, onConnect, onDropMember, initialViewport }: Props & { initialViewport: Viewport | undefined }) {
  const detailed = useDetailed();
  const byKey = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  const [hovered, setHovered] = useState<string | null>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const onEnter: NodeMouseHandler<CanvasNode> = useCallback((_, n) => setHovered(n.id), []);
  const onLeave: NodeMouseHandler<CanvasNode> = useCallback(() => setHovered(null), []);
  const onClick: NodeMouseHandler<CanvasNode> = useCallback((_, n) => onNodeClick(n.id), [onNodeClick]);
  // xyflow measures a node's handles from the DOM when it mounts, and a node mounted as a box has
  // none; once nodes show their handles again, the ones on screen are measured again so that their
  // edges find both ends.
  const remeasure = useUpdateNodeInternals();
  const domNode = useStore((s) => s.domNode);
  useEffect(() => {
    if (!detailed || !domNode) return;
    remeasure(Array.from(domNode.querySelectorAll(".react-flow__node"), (el) => el.getAttribute("data-id")!));
  }, [detailed, domNode, remeasure]);
  // Selection is ours (controlled nodes): xyflow only reports clicks and keyboard selection.
  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      const selections = changes.filter((c) => c.type === "select");
      if (selections.length) onSelect(selections.find((c) => c.selected)?.id ?? null);
    },
    [onSelect],
  );
  const onDragOver = useCallback((e: DragEvent) => {
    if (!e.dataTransfer.types.includes(MEMBER_MIME)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = "copy";
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const member = e.dataTransfer.getData(MEMBER_MIME);
      if (!member) return;
      e.preventDefault();
      onDropMember(member);
    },
    [onDropMember],
  );

  return (
    <ReactFlow<CanvasNode, CanvasEdge>
      nodes={nodes}
      edges={detailed ? edges : NO_EDGES}
      nodeTypes={nodeTypes}
      onNodesChange={onNodesChange}
      onNodeClick={onClick}
      onNodeMouseEnter={onEnter}
      onNodeMouseLeave={onLeave}
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
    >
      <Background gap={24} />
      <NodeOverlay nodes={byKey} selected={selected} focused={focused} hovered={hovered} />
      {!detailed && <OverviewEdges nodes={nodes} edges={edges} />}
      <MiniMap<CanvasNode> pannable zoomable nodeColor={minimapColor} ariaLabel="minimap" style={{ width: 160, height: 110 }} />
      <Controls showInteractive={false} fitViewOptions={FIT_VIEW} />
    </ReactFlow>
  );
}
