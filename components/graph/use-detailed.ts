import { useStore } from "@xyflow/react";
import { createContext, useContext } from "react";

/**
 * Below this zoom a node's text is too small to read, so nodes draw as coloured boxes without
 * text or handles: a fitted view of 2,000 nodes then costs the browser a box per node instead of
 * a dozen elements of laid-out text, and crossing the line re-renders only the nodes in view.
 */
export const DETAIL_ZOOM = 0.4;

/** True when the canvas is zoomed in far enough to read a node; changes only when the line is crossed. */
export const useDetailed = (): boolean => useStore((s) => s.transform[2] >= DETAIL_ZOOM);

/** Nodes the staging still draws as boxes, though the zoom is past the line for cards (staging.ts). */
export const HeldCompact = createContext<ReadonlySet<string>>(new Set());

/** True when the node is drawn as a card: zoomed in far enough, and not held back by the staging. */
export function useCard(id: string): boolean {
  const held = useContext(HeldCompact);
  return useDetailed() && !held.has(id);
}

/**
 * Zooms from which a box's name is drawn, at about 10 px on screen. Names would fit from 0.17, but the
 * first step is where nodes become elements again, and every element in view is placed at once there:
 * measured on the 2,000-node graph, 750 ms at 0.17 (and before xyflow was remounted), 270 ms at 0.25.
 */
const LABEL_STEPS = [0.3, 0.35];

/** Below this zoom nodes are drawn as an overview (OverviewNodes), not as elements. */
export const OVERVIEW_ZOOM = LABEL_STEPS[0];

/** True when zoomed out past names; changes only when the line is crossed. */
export const useOverview = (): boolean => useStore((s) => s.transform[2] < OVERVIEW_ZOOM);

/**
 * The zoom labels are sized for (the step at or below the current zoom), or 0 when too far out for names:
 * changes only when a step is crossed, so labels are restyled a few times per zoom gesture, not every frame.
 */
export const useLabelZoom = (): number => useStore((s) => LABEL_STEPS.findLast((z) => s.transform[2] >= z) ?? 0);

/** The side of the squares the view is rounded out to, in flow units. */
const TILE = 1500;

/**
 * The part of the flow in view, rounded out to whole tiles: it changes only when the view reaches a new
 * tile, not on every frame of a pan, so what depends on it is worked out again a few times per gesture.
 */
export const useViewTiles = (): string =>
  useStore((s) => {
    const [x, y, zoom] = s.transform;
    const [left, top] = [-x / zoom, -y / zoom];
    const cell = (v: number, up: boolean) => (up ? Math.ceil(v / TILE) : Math.floor(v / TILE)) * TILE;
    return [cell(left, false), cell(top, false), cell(left + s.width / zoom, true), cell(top + s.height / zoom, true)].join(",");
  });
