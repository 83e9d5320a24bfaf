"use client";

import { useStore, ViewportPortal } from "@xyflow/react";
import { memo, useMemo } from "react";
import type { GraphEdgeKind } from "@/lib/api/graph.ts";
import type { CanvasEdge, CanvasNode } from "./flow-elements.ts";

const KINDS: GraphEdgeKind[] = ["depends_on", "needs_artifact", "output", "derived_from"];

function handleCentre(n: CanvasNode, id: string | null | undefined): [number, number] {
  const h = n.handles!.find((x) => x.id === id)!;
  return [n.position.x + h.x + h.width! / 2, n.position.y + h.y + h.height! / 2];
}

/**
 * The length of an arrowhead in flow units: about 7 px on screen, in powers of two of the zoom so the
 * paths are rebuilt a few times per zoom gesture, never shorter than a card's (12) nor longer than
 * half a box's height (30): zoomed out further, arrowheads shrink with the boxes they point at.
 */
const useArrowSize = (): number => useStore((s) => Math.min(30, Math.max(12, 7 * 2 ** Math.round(Math.log2(1 / s.transform[2])))));

/**
 * Edges as one SVG path per kind, drawn in the viewport: all of them while zoomed out, and zoomed in
 * those that touch no node near the view. xyflow draws an
 * edge as its own component (a wrapper, a path, a marker, a position lookup), which for 2,000
 * nodes' edges costs most of a second per render; a handful of long paths costs milliseconds, and
 * panning or zooming then only moves the viewport. Arrowheads are one more path per kind: edges
 * always enter a node downwards at its top, so each is a triangle pointing down at the edge's end.
 */
function OverviewEdges({ byKey, edges }: { byKey: ReadonlyMap<string, CanvasNode>; edges: CanvasEdge[] }) {
  const arrow = useArrowSize();
  const curves = useMemo(() => {
    const d = new Map<GraphEdgeKind, string[]>(KINDS.map((k) => [k, []]));
    const ends = new Map<GraphEdgeKind, [number, number][]>(KINDS.map((k) => [k, []]));
    for (const e of edges) {
      const [from, to] = [byKey.get(e.source), byKey.get(e.target)];
      if (e.hidden || !from || !to || !e.data) continue;
      // From the same handles xyflow draws its edges between, so nothing shifts at the zoom line.
      const [sx, sy] = handleCentre(from, e.sourceHandle);
      const [tx, ty] = handleCentre(to, e.targetHandle);
      const bend = Math.max(Math.abs(ty - sy) / 2, 20);
      d.get(e.data.kind)!.push(`M${sx},${sy}C${sx},${sy + bend} ${tx},${ty - bend} ${tx},${ty}`);
      ends.get(e.data.kind)!.push([tx, ty]);
    }
    return KINDS.map((kind) => ({ kind, d: d.get(kind)!.join(""), ends: ends.get(kind)! }));
  }, [byKey, edges]);
  // Zooming changes only the arrowheads' size: the curves stay as they are.
  const paths = useMemo(
    () => curves.map(({ kind, d, ends }) => ({ kind, d, heads: ends.map(([tx, ty]) => `M${tx},${ty}l${-arrow / 2},${-arrow}h${arrow}z`).join("") })),
    [curves, arrow],
  );
  return (
    <ViewportPortal>
      <svg className="overview-edges" aria-hidden="true">
        {paths.map((p) => p.d && <path key={p.kind} className={`edge-${p.kind}`} d={p.d} />)}
        {paths.map((p) => p.heads && <path key={`${p.kind}-heads`} className={`arrows edge-${p.kind}`} d={p.heads} />)}
      </svg>
    </ViewportPortal>
  );
}

export default memo(OverviewEdges);
