"use client";

import { ViewportPortal } from "@xyflow/react";
import { memo, useMemo } from "react";
import type { CanvasNode } from "./flow-elements.ts";
import { isContractNode, isGroupNode } from "./flow-elements.ts";

/** The class a box is filled by: its state's colour, and stripes for failed and stale (see globals.css). */
function classOf(n: CanvasNode): string {
  if (isGroupNode(n)) return "group";
  if (isContractNode(n)) return `state-${n.data.contract.status}`;
  const a = n.data.artifact;
  return a.stale ? "stale" : a.status === "active" ? "artifact" : "unpublished";
}

/**
 * Every node as a rectangle in one SVG path per class, drawn while zoomed out past reading names
 * (OVERVIEW_ZOOM): 10,000 boxes as elements cost seconds to place and unplace, a handful of paths
 * milliseconds. Pointing and clicking still work: GraphCanvas finds the node under the pointer from
 * the positions.
 */
function OverviewNodes({ nodes }: { nodes: CanvasNode[] }) {
  const paths = useMemo(() => {
    const d = new Map<string, string[]>();
    let count = 0;
    for (const n of nodes) {
      if (n.hidden) continue;
      const c = classOf(n);
      (d.get(c) ?? d.set(c, []).get(c)!).push(`M${n.position.x},${n.position.y}h${n.width}v${n.height}h${-n.width!}z`);
      count++;
    }
    return { count, list: [...d].map(([c, parts]) => ({ c, d: parts.join("") })) };
  }, [nodes]);
  return (
    <ViewportPortal>
      <svg className="overview-nodes" aria-hidden="true" data-testid="overview-nodes" data-nodes={paths.count}>
        <defs>
          <pattern id="overview-stripes" width="24" height="24" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
            <rect width="12" height="24" fill="rgb(255 255 255 / 0.5)" />
          </pattern>
        </defs>
        {paths.list.map((p) => (
          <g key={p.c} className={p.c}>
            <path d={p.d} />
            {(p.c === "state-failed" || p.c === "stale") && <path d={p.d} fill="url(#overview-stripes)" />}
          </g>
        ))}
      </svg>
    </ViewportPortal>
  );
}

export default memo(OverviewNodes);

/** The node whose box, grown by `slack` on every side, holds a point of the flow, if any. */
export function nodeAt(nodes: readonly CanvasNode[], x: number, y: number, slack: number): CanvasNode | undefined {
  return nodes.find(
    (n) => !n.hidden && x >= n.position.x - slack && x <= n.position.x + n.width! + slack && y >= n.position.y - slack && y <= n.position.y + n.height! + slack,
  );
}
