"use client";

import { useMemo } from "react";
import { GROUP_BY, type GroupBy } from "./grouping.ts";

type Props = {
  by: GroupBy | null;
  groups: ReadonlyMap<string, string> | null;
  expanded: ReadonlySet<string>;
  onBy: (by: GroupBy | null) => void;
  onExpanded: (expanded: Set<string>) => void;
};

/** Grouping by member, contract or type; every group starts collapsed, and each opens and closes here or by clicking its box. */
export function CanvasGroups({ by, groups, expanded, onBy, onExpanded }: Props) {
  const sizes = useMemo(() => {
    const m = new Map<string, number>();
    for (const name of groups?.values() ?? []) m.set(name, (m.get(name) ?? 0) + 1);
    return [...m].sort((a, b) => a[0].localeCompare(b[0]));
  }, [groups]);
  const toggle = (name: string) => {
    const next = new Set(expanded);
    if (!next.delete(name)) next.add(name);
    onExpanded(next);
  };
  return (
    <section className="canvas-groups" aria-label="groups" data-testid="canvas-groups">
      <h2>Groups</h2>
      <label className="row">
        Group by
        <select value={by ?? ""} onChange={(e) => onBy((e.target.value || null) as GroupBy | null)} data-testid="group-by">
          <option value="">nothing</option>
          {GROUP_BY.map((g) => (
            <option key={g} value={g}>
              {g}
            </option>
          ))}
        </select>
      </label>
      {by && (
        <>
          <div className="row">
            <button type="button" onClick={() => onExpanded(new Set(sizes.map(([name]) => name)))}>
              Expand all
            </button>
            <button type="button" onClick={() => onExpanded(new Set())}>
              Collapse all
            </button>
          </div>
          <ul className="plain canvas-group-list">
            {sizes.map(([name, size]) => (
              <li key={name}>
                <label className="chip">
                  <input type="checkbox" checked={expanded.has(name)} onChange={() => toggle(name)} aria-label={`expand group ${name}`} />
                  {name} <span className="muted">{size}</span>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
