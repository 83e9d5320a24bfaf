"use client";

import type { Depth } from "./graph-index.ts";

const DEPTHS: Array<[string, Depth]> = [
  ["1", 1],
  ["2", 2],
  ["3", 3],
  ["all", Infinity],
];

/** Shown while the canvas is focused on one node's lineage: whose, how deep, and the way back to the whole graph. */
export function LineageBar({
  id,
  depth,
  count,
  onDepth,
  onExit,
}: {
  id: string;
  depth: Depth;
  count: number;
  onDepth: (d: Depth) => void;
  onExit: () => void;
}) {
  return (
    <div className="lineage-bar" role="status" data-testid="lineage-bar">
      <span>
        Lineage of <strong className="mono">{id}</strong> · {count} nodes
      </span>
      <label>
        depth{" "}
        <select value={String(depth)} onChange={(e) => onDepth(Number(e.target.value))} data-testid="lineage-depth">
          {DEPTHS.map(([name, d]) => (
            <option key={name} value={String(d)}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <button type="button" onClick={onExit} data-testid="lineage-exit">
        Whole graph
      </button>
    </div>
  );
}
