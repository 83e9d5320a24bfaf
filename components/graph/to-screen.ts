import type { Transform } from "@xyflow/react";
import type { CanvasNode } from "./flow-elements.ts";

/** A box in flow units, as a laid-out node or a group's frame has. */
export type FlowBox = { x: number; y: number; width: number; height: number };

/** A node's box; a node on the canvas has been measured, so its size is known. */
export const nodeBox = (n: CanvasNode): FlowBox => ({ x: n.position.x, y: n.position.y, width: n.width!, height: n.height! });

/** Where a box of the flow is on screen, in the canvas's pixels, for what is drawn over the canvas rather than in it. */
export const toScreen = (b: FlowBox, [x, y, zoom]: Transform) => ({
  left: b.x * zoom + x,
  top: b.y * zoom + y,
  width: b.width * zoom,
  height: b.height * zoom,
});
