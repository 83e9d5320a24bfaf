import { useStore } from "@xyflow/react";

/**
 * Below this zoom a node's text is too small to read, so nodes draw as coloured boxes without
 * text or handles: a fitted view of 2,000 nodes then costs the browser a box per node instead of
 * a dozen elements of laid-out text, and crossing the line re-renders only the nodes in view.
 */
export const DETAIL_ZOOM = 0.4;

/** True when the canvas is zoomed in far enough to read a node; changes only when the line is crossed. */
export const useDetailed = (): boolean => useStore((s) => s.transform[2] >= DETAIL_ZOOM);
