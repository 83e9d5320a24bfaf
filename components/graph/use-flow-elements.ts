import { useState } from "react";
import { flowEdges, flowNodes, layoutNodesOf, nodesSignature, type CanvasEdge, type CanvasNode, type Filters } from "./flow-elements.ts";
import type { ShownView } from "./grouping.ts";
import { layoutGraph, type Layout } from "./layout.ts";

type Drawn = {
  view: ShownView | undefined;
  filters: Filters;
  selected: string | null;
  structure: string;
  layout: Layout | null;
  nodes: CanvasNode[];
  edges: CanvasEdge[];
};

const byId = <T extends { id: string }>(items: readonly T[]) => new Map(items.map((i) => [i.id, i]));

/**
 * The canvas's nodes and edges, drawn again only when the view, the filters or the selection change. What the
 * last drawing produced is kept in state (React's way to remember a previous render): the graph is laid out
 * again only when nodes come or go, not when a state or a link changes (see nodesSignature), and nodes and
 * edges that did not change keep their objects, so xyflow re-renders only those that did.
 */
export function useFlowElements(
  view: ShownView | undefined,
  filters: Filters,
  selected: string | null,
): { nodes: CanvasNode[]; edges: CanvasEdge[]; layout: Layout | null } {
  const [drawn, setDrawn] = useState<Drawn>({ view: undefined, filters, selected, structure: "", layout: null, nodes: [], edges: [] });
  if (drawn.view === view && drawn.filters === filters && drawn.selected === selected) return drawn;
  const structure = view ? nodesSignature(view) : "";
  const layout = structure === drawn.structure && drawn.layout ? drawn.layout : view ? layoutGraph(layoutNodesOf(view), view.edges) : null;
  const nodes = view && layout ? flowNodes(view, layout, filters, selected, byId(drawn.nodes)) : [];
  const hidden = new Set(nodes.filter((n) => n.hidden).map((n) => n.id));
  const edges = view ? flowEdges(view, hidden, byId(drawn.edges)) : [];
  const next = { view, filters, selected, structure, layout, nodes, edges };
  setDrawn(next);
  return next;
}
