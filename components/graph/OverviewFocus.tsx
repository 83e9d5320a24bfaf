"use client";

import { useReactFlow, useStore } from "@xyflow/react";
import { useState, type FocusEvent, type KeyboardEvent } from "react";
import type { CanvasNode } from "./flow-elements.ts";
import { tooltipOf } from "./NodeOverlay.tsx";
import { nodeBox, toScreen } from "./to-screen.ts";

const STEPS: Record<string, [number, number]> = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
const centreOf = (n: CanvasNode): [number, number] => [n.position.x + n.width! / 2, n.position.y + n.height! / 2];

/** The shown node nearest to `from` in the direction of an arrow key, a step sideways counting double a step ahead. */
export function nextNode(nodes: readonly CanvasNode[], from: CanvasNode, [dx, dy]: [number, number]): CanvasNode | undefined {
  const [fx, fy] = centreOf(from);
  let best: CanvasNode | undefined;
  let bestScore = Infinity;
  for (const n of nodes) {
    if (n.hidden || n === from) continue;
    const [x, y] = centreOf(n);
    const ahead = (x - fx) * dx + (y - fy) * dy;
    if (ahead <= 0) continue;
    const score = ahead + 2 * Math.abs(dx ? y - fy : x - fx);
    if (score < bestScore) [best, bestScore] = [n, score];
  }
  return best;
}

type Props = {
  nodes: readonly CanvasNode[];
  byKey: ReadonlyMap<string, CanvasNode>;
  selected: string | null;
  /** The node the keyboard is on, for the ring and tooltip NodeOverlay draws. */
  onFocusKey: (key: string | null) => void;
  /** Enter or Space on a node: what a click on it does. */
  onActivate: (key: string) => void;
};

/**
 * Keyboard focus in the overview, where boxes are no elements: one focusable element laid over a box.
 * Tab reaches it on the selected box if in view, else on the box nearest the middle of the view; the
 * arrow keys move it to the nearest box that way (the view follows), Enter or Space does what a click
 * does, and Tab leaves the canvas (one stop, not 10,000).
 */
export function OverviewFocus({ nodes, byKey, selected, onFocusKey, onActivate }: Props) {
  const transform = useStore((s) => s.transform);
  const [x, y, zoom] = transform;
  const [width, height] = [useStore((s) => s.width), useStore((s) => s.height)];
  const { setCenter } = useReactFlow();
  const [key, setKey] = useState<string | null>(null);
  const screen = (n: CanvasNode) => toScreen(nodeBox(n), transform);
  const inView = (n: CanvasNode) => {
    const r = screen(n);
    return !n.hidden && r.left + r.width > 0 && r.left < width && r.top + r.height > 0 && r.top < height;
  };
  const move = (n: CanvasNode | undefined) => {
    if (!n) return;
    setKey(n.id);
    onFocusKey(n.id);
    if (!inView(n)) void setCenter(...centreOf(n), { zoom, duration: 0 });
  };
  const onFocus = (e: FocusEvent) => {
    // The canvas's own focus handler reads a focused node element, which this is not.
    e.stopPropagation();
    const current = key ? byKey.get(key) : undefined;
    if (current && inView(current)) return onFocusKey(current.id);
    const chosen = selected ? byKey.get(selected) : undefined;
    if (chosen && inView(chosen)) return move(chosen);
    const [cx, cy] = [(width / 2 - x) / zoom, (height / 2 - y) / zoom];
    let nearest: CanvasNode | undefined;
    let distance = Infinity;
    for (const n of nodes) {
      if (n.hidden) continue;
      const [nx, ny] = centreOf(n);
      const d = (nx - cx) ** 2 + (ny - cy) ** 2;
      if (d < distance) [nearest, distance] = [n, d];
    }
    move(nearest);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const n = key ? byKey.get(key) : undefined;
    if (!n) return;
    if (e.key in STEPS) {
      e.preventDefault();
      move(nextNode(nodes, n, STEPS[e.key]));
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      onActivate(n.id);
    }
  };
  const n = key ? byKey.get(key) : undefined;
  const r = n && inView(n) ? screen(n) : { left: width / 2, top: height / 2, width: 1, height: 1 };
  const tip = n && tooltipOf(n);
  return (
    <div
      tabIndex={0}
      role="button"
      className="overview-focus"
      data-testid="overview-focus"
      data-id={n?.id}
      aria-label={tip ? `${tip.title}: ${tip.lines.filter(Boolean).join(", ")}` : "nodes of the canvas; arrow keys move between them"}
      style={r}
      onFocus={onFocus}
      onKeyDown={onKeyDown}
    />
  );
}
