"use client";

import { useMemo, useState, type KeyboardEvent } from "react";
import type { GraphNode } from "@/lib/api/graph.ts";
import { searchGraph, type GraphIndex } from "./graph-index.ts";

const RESULTS = 12;
const describe = (n: GraphNode) =>
  n.kind === "contract" ? `${n.title} · ${n.assignee} · ${n.status.replace("_", " ")}` : `${n.type ?? "unpublished"}${n.stale ? " · stale" : ""}`;

/**
 * Finds a node by id, title, member or type, as a combobox: arrows move through the matches, Enter
 * (or a click) jumps to the chosen one, Escape closes the list. Focusing it asks for the index
 * (`onFocus`), which the page builds only then.
 */
export function CanvasSearch({ index, onFocus, onPick }: { index: GraphIndex | null; onFocus: () => void; onPick: (key: string) => void }) {
  const [query, setQuery] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const results = useMemo(() => (index ? searchGraph(index, query, RESULTS) : []), [index, query]);
  const pick = (n: GraphNode | undefined) => {
    if (!n) return;
    setOpen(false);
    onPick(n.key);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      setActive((a) => (a + (e.key === "ArrowDown" ? 1 : results.length - 1)) % Math.max(results.length, 1));
    } else if (e.key === "Enter") {
      e.preventDefault();
      pick(results[active]);
    } else if (e.key === "Escape") setOpen(false);
  };
  const shown = open && query.trim() !== "";
  return (
    <div className="canvas-search" role="search">
      <input
        type="search"
        role="combobox"
        aria-label="search the canvas"
        aria-expanded={shown}
        aria-controls="canvas-search-results"
        aria-activedescendant={shown && results[active] ? `canvas-search-${active}` : undefined}
        placeholder="Search id, title, member, type"
        value={query}
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
          setOpen(true);
        }}
        onFocus={() => {
          onFocus();
          setOpen(true);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={onKeyDown}
        data-testid="canvas-search"
      />
      {shown && (
        <ul id="canvas-search-results" role="listbox" className="canvas-search-results" data-testid="canvas-search-results">
          {results.map((n, i) => (
            <li
              key={n.key}
              id={`canvas-search-${i}`}
              role="option"
              aria-selected={i === active}
              data-key={n.key}
              // Before the input's blur closes the list.
              onMouseDown={(e) => {
                e.preventDefault();
                pick(n);
              }}
            >
              <span className="mono">{n.id}</span> <span className="muted">{describe(n)}</span>
            </li>
          ))}
          {results.length === 0 && <li className="muted">No node matches “{query.trim()}”</li>}
        </ul>
      )}
    </div>
  );
}
