"use client";

import { ViewportPortal, type Rect } from "@xyflow/react";
import { memo, useState } from "react";
import type { CanvasNode } from "./flow-elements.ts";
import { isContractNode, isGroupNode } from "./flow-elements.ts";

/** The class a box is filled by: its state's colour, and stripes for failed and stale (see globals.css). */
function classOf(n: CanvasNode): string {
  if (isGroupNode(n)) return "group";
  if (isContractNode(n)) return `state-${n.data.contract.status}`;
  const a = n.data.artifact;
  return a.stale ? "stale" : a.status === "active" ? "artifact" : "unpublished";
}

/** Every shown node's box, as one SVG path per class, and the rectangle they fill. */
export type BoxPaths = { count: number; list: { c: string; d: string }[]; bounds: Rect };

/** The paths of every shown node's box, built once per set of nodes for the overview and the minimap. */
export function boxPaths(nodes: readonly CanvasNode[]): BoxPaths {
  const d = new Map<string, string[]>();
  let count = 0;
  let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of nodes) {
    if (n.hidden) continue;
    const { x, y } = n.position;
    const c = classOf(n);
    (d.get(c) ?? d.set(c, []).get(c)!).push(`M${x},${y}h${n.width}v${n.height}h${-n.width!}z`);
    [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x + n.width!), Math.max(bottom, y + n.height!)];
    count++;
  }
  const bounds = count ? { x: left, y: top, width: right - left, height: bottom - top } : { x: 0, y: 0, width: 0, height: 0 };
  return { count, list: [...d].map(([c, parts]) => ({ c, d: parts.join("") })), bounds };
}

/** Whether two lists of nodes draw the same boxes: a selection makes new node objects, not new boxes. */
function sameBoxes(a: readonly CanvasNode[], b: readonly CanvasNode[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i], b[i]];
    if (x !== y && (x.position !== y.position || !!x.hidden !== !!y.hidden || classOf(x) !== classOf(y))) return false;
  }
  return true;
}

/**
 * The box paths of `nodes` when `wanted`, kept while only selections change: rebuilding 10,000 boxes'
 * paths (and the browser parsing them again) on every click would slow each jump and selection. The
 * last paths are kept in state, React's way to remember a previous render (as useFlowElements does).
 */
export function useBoxPaths(nodes: readonly CanvasNode[], wanted: boolean): BoxPaths | null {
  const [kept, setKept] = useState<{ nodes: readonly CanvasNode[]; paths: BoxPaths } | null>(null);
  if (!wanted) return null;
  if (kept && (kept.nodes === nodes || sameBoxes(kept.nodes, nodes))) return kept.paths;
  const next = { nodes, paths: boxPaths(nodes) };
  setKept(next);
  return next.paths;
}

/**
 * Every node as a rectangle in one SVG path per class, drawn while zoomed out past reading names
 * (OVERVIEW_ZOOM): 10,000 boxes as elements cost seconds to place and unplace, a handful of paths
 * milliseconds. Pointing and clicking still work: GraphCanvas finds the node under the pointer from
 * the positions.
 */
function OverviewNodes({ paths }: { paths: BoxPaths }) {
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
