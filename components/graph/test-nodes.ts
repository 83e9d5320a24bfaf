import type { CanvasNode } from "./flow-elements.ts";

/** An artifact's box at (x, y), 200 × 56 as on the canvas. */
export const box = (id: string, x: number, y: number, hidden = false): CanvasNode => ({
  id,
  type: "artifact",
  position: { x, y },
  width: 200,
  height: 56,
  hidden,
  data: {
    artifact: {
      kind: "artifact",
      key: id,
      id,
      type: "custom",
      name: id,
      version: 1,
      latestVersion: 1,
      status: "active",
      stale: false,
      staleReasons: [],
      publisher: null,
    },
  },
});
