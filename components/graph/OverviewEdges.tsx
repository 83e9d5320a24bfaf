"use client";

import { ViewportPortal } from "@xyflow/react";
import { memo, useMemo } from "react";
import type { GraphEdgeKind } from "@/lib/api/graph.ts";
import type { CanvasEdge, CanvasNode } from "./flow-elements.ts";

const KINDS: GraphEdgeKind[] = ["depends_on", "needs_artifact", "output", "derived_from"];

function handleCentre(n: CanvasNode, id: string | null | undefined): [number, number] {
  const h = n.handles!.find((x) => x.id === id)!;
  return [n.position.x + h.x + h.width! / 2, n.position.y + h.y + h.height! / 2];
}

/**
 * Edges as one SVG path per kind, drawn in the viewport: all of them while zoomed out, and zoomed in
 * those that touch no node near the view. xyflow draws an
 * edge as its own component (a wrapper, a path, a marker, a position lookup), which for 2,000
 * nodes' edges costs most of a second per render; a handful of long paths costs milliseconds, and
 * panning or zooming then only moves the viewport. Arrowheads are left out: at this zoom they
 * would be specks, and edges always point down the layout.
 */
function OverviewEdges({ nodes, edges }: { nodes: CanvasNode[]; edges: CanvasEdge[] }) {
  const paths = useMemo(() => {
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const d = new Map<GraphEdgeKind, string[]>(KINDS.map((k) => [k, []]));
    for (const e of edges) {
      const [from, to] = [byId.get(e.source), byId.get(e.target)];
      if (e.hidden || !from || !to || !e.data) continue;
      // From the same handles xyflow draws its edges between, so nothing shifts at the zoom line.
      const [sx, sy] = handleCentre(from, e.sourceHandle);
      const [tx, ty] = handleCentre(to, e.targetHandle);
      const bend = Math.max(Math.abs(ty - sy) / 2, 20);
      d.get(e.data.kind)!.push(`M${sx},${sy}C${sx},${sy + bend} ${tx},${ty - bend} ${tx},${ty}`);
    }
    return KINDS.map((kind) => ({ kind, d: d.get(kind)!.join("") }));
  }, [nodes, edges]);
  return (
    <ViewportPortal>
      <svg className="overview-edges" aria-hidden="true">
        {paths.map((p) => p.d && <path key={p.kind} className={`edge-${p.kind}`} d={p.d} />)}
      </svg>
    </ViewportPortal>
  );
}

export default memo(OverviewEdges);
