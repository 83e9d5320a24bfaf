import { useState } from "react";
import { flowEdges, flowNodes, layoutNodesOf, nodesSignature, type CanvasEdge, type CanvasNode, type Filters } from "./flow-elements.ts";
import { layoutGrouped, type Frame, type GroupBy, type ShownView } from "./grouping.ts";
import { layoutGraph, type Layout } from "./layout.ts";

/** How the view is grouped, when it is: the layout then boxes each expanded group's members in a frame. */
export type Grouping = { by: GroupBy; groups: ReadonlyMap<string, string> } | null;
const NO_FRAMES: Frame[] = [];

type Drawn = {
  view: ShownView | undefined;
  filters: Filters;
  selected: string | null;
  structure: string;
  tidied: number;
  layout: Layout | null;
  frames: Frame[];
  nodes: CanvasNode[];
  edges: CanvasEdge[];
};

const byId = <T extends { id: string }>(items: readonly T[]) => new Map(items.map((i) => [i.id, i]));

/**
 * The canvas's nodes, edges and group frames, drawn again only when the view, the filters or the selection change. What the
 * last drawing produced is kept in state (React's way to remember a previous render): the graph is laid out
 * again only when nodes come or go, not when a state or a link changes (see nodesSignature), and nodes and
 * edges that did not change keep their objects, so xyflow re-renders only those that did.
 */
export function useFlowElements(
  view: ShownView | undefined,
  filters: Filters,
  selected: string | null,
  grouping: Grouping,
  /** Bumped to lay the graph out afresh although no node came or went ("Tidy layout"). */
  tidied: number,
): { nodes: CanvasNode[]; edges: CanvasEdge[]; frames: Frame[] } {
  const [drawn, setDrawn] = useState<Drawn>({
    view: undefined,
    filters,
    selected,
    structure: "",
    tidied,
    layout: null,
    frames: NO_FRAMES,
    nodes: [],
    edges: [],
  });
  if (drawn.view === view && drawn.filters === filters && drawn.selected === selected && drawn.tidied === tidied) return drawn;
  const structure = view ? `${tidied}|${grouping?.by ?? ""}|${nodesSignature(view)}` : "";
  const same = structure === drawn.structure && drawn.layout;
  const grouped = !same && view && grouping ? layoutGrouped(view, grouping.groups, layoutNodesOf(view)) : null;
  const layout = same ? drawn.layout : (grouped ?? (view ? layoutGraph(layoutNodesOf(view), view.edges) : null));
  const frames = same ? drawn.frames : (grouped?.frames ?? NO_FRAMES);
  const nodes = view && layout ? flowNodes(view, layout, filters, selected, byId(drawn.nodes)) : [];
  const hidden = new Set(nodes.filter((n) => n.hidden).map((n) => n.id));
  const edges = view ? flowEdges(view, hidden, byId(drawn.edges)) : [];
  const next = { view, filters, selected, structure, tidied, layout, frames, nodes, edges };
  setDrawn(next);
  return next;
}
