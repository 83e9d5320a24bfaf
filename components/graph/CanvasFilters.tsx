"use client";

import { useMemo } from "react";
import { ContractStatus } from "@/lib/api/contracts.ts";
import type { GraphNode } from "@/lib/api/graph.ts";
import { UNPUBLISHED_TYPE, type Filters } from "./flow-elements.ts";

type Counts = { kinds: Map<string, number>; states: Map<string, number>; types: Map<string, number> };

function countsOf(nodes: GraphNode[]): Counts {
  const c: Counts = { kinds: new Map(), states: new Map(), types: new Map() };
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const n of nodes) {
    add(c.kinds, n.kind);
    if (n.kind === "contract") add(c.states, n.status);
    else add(c.types, n.type ?? UNPUBLISHED_TYPE);
  }
  return c;
}

function toggled<T>(set: Set<T>, value: T): Set<T> {
  const next = new Set(set);
  if (!next.delete(value)) next.add(value);
  return next;
}

function Chip({ label, count, shown, onToggle, className }: { label: string; count: number; shown: boolean; onToggle: () => void; className?: string }) {
  return (
    <label className={`chip ${className ?? ""}`}>
      <input type="checkbox" checked={shown} onChange={onToggle} />
      {label} <span className="muted">{count}</span>
    </label>
  );
}

/** What to show: contracts and artifacts, contracts by state, artifacts by type. The team comes from the header. */
export function CanvasFilters({ nodes, filters, onChange }: { nodes: GraphNode[]; filters: Filters; onChange: (f: Filters) => void }) {
  // Counted once per graph, not on every render of the page (10,000 nodes: a few ms each time).
  const counts = useMemo(() => countsOf(nodes), [nodes]);
  const types = [...counts.types.keys()].sort();
  return (
    <section className="canvas-filters" aria-label="filters" data-testid="canvas-filters">
      <h2>Filters</h2>
      <fieldset>
        <legend>Show</legend>
        {(["contract", "artifact"] as const).map((k) => (
          <Chip
            key={k}
            label={`${k}s`}
            count={counts.kinds.get(k) ?? 0}
            shown={!filters.kinds.has(k)}
            onToggle={() => onChange({ ...filters, kinds: toggled(filters.kinds, k) })}
          />
        ))}
      </fieldset>
      <fieldset disabled={filters.kinds.has("contract")}>
        <legend>States</legend>
        {ContractStatus.options.map((s) => (
          <Chip
            key={s}
            label={s.replace("_", " ")}
            className={`state-chip ${s}`}
            count={counts.states.get(s) ?? 0}
            shown={!filters.states.has(s)}
            onToggle={() => onChange({ ...filters, states: toggled(filters.states, s) })}
          />
        ))}
      </fieldset>
      {types.length > 0 && (
        <fieldset disabled={filters.kinds.has("artifact")}>
          <legend>Types</legend>
          {types.map((t) => (
            <Chip
              key={t}
              label={t}
              count={counts.types.get(t) ?? 0}
              shown={!filters.types.has(t)}
              onToggle={() => onChange({ ...filters, types: toggled(filters.types, t) })}
            />
          ))}
        </fieldset>
      )}
    </section>
  );
}
