import type { CanvasNode } from "./flow-elements.ts";

/**
 * Nodes brought in per frame after a zoom crossing. Crossing out of the overview mounts every node in view, and
 * crossing into cards redraws each with its text and handles: done at once for the ~140 nodes in view of the
 * 2,000-node graph, each crossing was one task of 150–250 ms on a slow machine. A chunk of this many is a few
 * tens of milliseconds.
 */
export const CHUNK = 30;

/** Nodes in view held back after a crossing, released a chunk per frame, the nearest to the middle of the view first. */
export type Staging = {
  /** Not handed to xyflow yet. */
  unmounted: readonly string[];
  /** Drawn as boxes still, though the zoom is past the line for cards. */
  compact: readonly string[];
  /** Made cards by the last step: xyflow measures their handles again. */
  carded: readonly string[];
};

export const SETTLED: Staging = { unmounted: [], compact: [], carded: [] };

type Transform = readonly [number, number, number];

/** The nodes whose boxes meet the view, as xyflow decides which to draw (any overlap), hidden ones left out. */
export function inView(nodes: readonly CanvasNode[], [x, y, zoom]: Transform, width: number, height: number): CanvasNode[] {
  const [left, top, right, bottom] = [-x / zoom, -y / zoom, (width - x) / zoom, (height - y) / zoom];
  return nodes.filter((n) => {
    const { x: nx, y: ny } = n.position;
    return !n.hidden && nx + (n.width ?? 0) > left && nx < right && ny + (n.height ?? 0) > top && ny < bottom;
  });
}

/** The nodes' keys, the nearest to the middle of the view first. */
export function nearestFirst(nodes: readonly CanvasNode[], [x, y, zoom]: Transform, width: number, height: number): string[] {
  const [midX, midY] = [(width / 2 - x) / zoom, (height / 2 - y) / zoom];
  const distance = (n: CanvasNode) => (n.position.x + (n.width ?? 0) / 2 - midX) ** 2 + (n.position.y + (n.height ?? 0) / 2 - midY) ** 2;
  return nodes
    .map((n): [number, string] => [distance(n), n.id])
    .sort((a, b) => a[0] - b[0])
    .map(([, id]) => id);
}

/** Crossing out of the overview: the first chunk in view is mounted with xyflow, the rest after it. */
export const mounting = (inView: readonly string[]): Staging => ({ unmounted: inView.slice(CHUNK), compact: [], carded: [] });

/**
 * Crossing into cards: the first chunk of the mounted nodes becomes cards at once, the rest after it. Every mounted
 * node is held, not only those in view: one drawn as a card without being held would not have its handles measured.
 */
export const carding = (s: Staging, mounted: readonly string[]): Staging => ({
  unmounted: s.unmounted,
  compact: mounted.slice(CHUNK),
  carded: mounted.slice(0, CHUNK),
});

/** Back out of cards: every mounted node is a box again, and none waits to become a card. */
export const uncarding = (s: Staging): Staging => ({ unmounted: s.unmounted, compact: [], carded: [] });

/** One frame's step: the next chunk is mounted, or when all are, the next chunk becomes cards. */
export function released(s: Staging): Staging {
  if (s.unmounted.length) return { ...s, unmounted: s.unmounted.slice(CHUNK), carded: [] };
  return { unmounted: [], compact: s.compact.slice(CHUNK), carded: s.compact.slice(0, CHUNK) };
}

/**
 * Everything held released at once: when the nodes themselves change (focus on a lineage, a filter, an update),
 * what the crossing held back is no longer what is drawn, and steps left over would only make the next render wait.
 */
export const releasedAll = (s: Staging): Staging => ({ unmounted: [], compact: [], carded: [...s.carded, ...s.compact] });

export const isSettled = (s: Staging): boolean => !s.unmounted.length && !s.compact.length;
