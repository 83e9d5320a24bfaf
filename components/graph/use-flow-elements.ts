import { useState } from "react";
import type { GraphView } from "@/lib/api/graph.ts";
import { flowEdges, flowNodes, layoutNodesOf, structureOf, type CanvasEdge, type CanvasNode, type Filters } from "./flow-elements.ts";
import { layoutGraph, type Layout } from "./layout.ts";

type Drawn = {
  view: GraphView | undefined;
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
 * again only when nodes or edges come or go (`structure`), not when a state changes, and nodes and edges that
 * did not change keep their objects, so xyflow re-renders only those that did.
 */
export function useFlowElements(view: GraphView | undefined, filters: Filters, selected: string | null): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const [drawn, setDrawn] = useState<Drawn>({ view: undefined, filters, selected, structure: "", layout: null, nodes: [], edges: [] });
  if (drawn.view === view && drawn.filters === filters && drawn.selected === selected) return drawn;
  const structure = view ? structureOf(view) : "";
  const layout = structure === drawn.structure ? drawn.layout : view ? layoutGraph(layoutNodesOf(view), view.edges) : null;
  const nodes = view && layout ? flowNodes(view, layout, filters, selected, byId(drawn.nodes)) : [];
  const hidden = new Set(nodes.filter((n) => n.hidden).map((n) => n.id));
  const edges = view ? flowEdges(view, hidden, byId(drawn.edges)) : [];
  const next = { view, filters, selected, structure, layout, nodes, edges };
  setDrawn(next);
  return next;
}
