"use client";

import { useStore } from "@xyflow/react";
import type { CanvasNode } from "./flow-elements.ts";
import { isContractNode, isGroupNode } from "./flow-elements.ts";
import type { Frame } from "./grouping.ts";
import { nodeBox, toScreen } from "./to-screen.ts";

/** What a tooltip says about a node: more than its box shows when zoomed out, less than its panel. */
export function tooltipOf(n: CanvasNode): { title: string; lines: string[] } {
  if (isGroupNode(n)) {
    const g = n.data.group;
    const states = Object.entries(g.states).map(([s, count]) => `${count} ${s.replace("_", " ")}`);
    return {
      title: `${g.by} ${g.id}`,
      lines: [`${g.contracts} contracts, ${g.artifacts} artifacts${g.stale ? `, ${g.stale} stale` : ""}`, states.join(", "), "click to expand"],
    };
  }
  if (isContractNode(n)) {
    const c = n.data.contract;
    return { title: c.title, lines: [`contract ${c.id} · ${c.status.replace("_", " ")}`, `assigned to ${c.assignee} · ${c.priority}`, c.statusReason ?? ""] };
  }
  const a = n.data.artifact;
  const version = a.version === null ? a.status.replace("_", " ") : `v${a.version}`;
  return {
    title: a.id,
    lines: [
      `artifact · ${a.type ?? "not published yet"} · ${version}`,
      a.publisher ? `published by ${a.publisher}` : "",
      a.stale ? `stale: ${a.staleReasons.length} reason(s)` : "",
    ],
  };
}

/**
 * Rings and a tooltip drawn over the canvas in screen space: a box's own outline shrinks with the
 * zoom to nothing, where these stay two pixels wide. The selected node (a search's or a click's) gets
 * a solid ring, the node with keyboard focus a dashed one, and the focused or hovered node a tooltip;
 * zoomed out to the overview, groups get their names.
 * This component re-renders while panning; it draws only the few things listed.
 */
type Props = {
  nodes: ReadonlyMap<string, CanvasNode>;
  selected: string | null;
  focused: string | null;
  hovered: string | null;
  /** Nodes named in screen space, for the overview: collapsed groups, which are few and the way into the rest. */
  named: readonly CanvasNode[];
  /** Frames of expanded groups, named at their top left in the overview. */
  frames: readonly Frame[];
};

export function NodeOverlay({ nodes, selected, focused, hovered, named, frames }: Props) {
  const transform = useStore((s) => s.transform);
  const rect = (key: string | null) => {
    const n = key ? nodes.get(key) : undefined;
    if (!n || n.hidden) return null;
    return { n, ...toScreen(nodeBox(n), transform) };
  };
  const ring = (key: string | null, kind: string) => {
    const r = rect(key);
    return r && <div className={`node-ring ${kind}`} style={{ left: r.left - 4, top: r.top - 4, width: r.width + 8, height: r.height + 8 }} />;
  };
  const tip = rect(hovered ?? focused);
  const text = tip && tooltipOf(tip.n);
  return (
    <div className="node-overlay" aria-hidden="true">
      {named.map((n) => {
        const r = rect(n.id);
        return (
          r && (
            <span
              key={n.id}
              className="overview-name"
              // As large as the box allows, between 8 and 13 px: neighbouring names must not overlap.
              style={{ left: r.left + r.width / 2, top: r.top + r.height / 2, fontSize: Math.min(13, Math.max(8, r.height * 1.2)) }}
            >
              {isGroupNode(n) ? n.data.group.id : n.id}
            </span>
          )
        );
      })}
      {frames.map((f) => {
        const { left, top } = toScreen(f, transform);
        return (
          <span key={f.name} className="overview-name frame" style={{ left, top }}>
            {f.name}
          </span>
        );
      })}
      {ring(selected, "selected")}
      {focused !== selected && ring(focused, "focused")}
      {tip && text && (
        <div className="node-tooltip" data-testid="node-tooltip" style={{ left: tip.left + tip.width / 2, top: tip.top + tip.height + 8 }}>
          <strong>{text.title}</strong>
          {text.lines.filter(Boolean).map((l) => (
            <span key={l}>{l}</span>
          ))}
        </div>
      )}
    </div>
  );
}
