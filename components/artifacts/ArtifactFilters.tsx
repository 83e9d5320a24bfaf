"use client";

import type { ArtifactFilters as Filters } from "@/lib/queries/artifacts.ts";

export type FilterDraft = { type: string; publisher: string; tag: string; status: string; stale: boolean };
export const NO_FILTERS: FilterDraft = { type: "", publisher: "", tag: "", status: "", stale: false };

/** What the list endpoint gets: empty fields are left out rather than sent as "" (which no filter accepts). */
export function toFilters(d: FilterDraft): Filters {
  return {
    ...(d.type ? { type: d.type } : {}),
    ...(d.publisher.trim() ? { publisher: d.publisher.trim() } : {}),
    ...(d.tag.trim() ? { tag: d.tag.trim() } : {}),
    ...(d.status ? { status: d.status as Filters["status"] } : {}),
    ...(d.stale ? { stale: true } : {}),
  };
}

export function ArtifactFilters({
  draft,
  onChange,
  types,
  names,
  tags,
}: {
  draft: FilterDraft;
  onChange: (d: FilterDraft) => void;
  types: string[];
  names: string[];
  tags: string[];
}) {
  const set = (patch: Partial<FilterDraft>) => onChange({ ...draft, ...patch });
  return (
    <form className="toolbar filters" role="search" aria-label="filter artifacts" onSubmit={(e) => e.preventDefault()}>
      <label>
        type{" "}
        <select aria-label="type" value={draft.type} onChange={(e) => set({ type: e.target.value })}>
          <option value="">any</option>
          {types.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        publisher{" "}
        <input aria-label="publisher" list="artifact-publishers" value={draft.publisher} onChange={(e) => set({ publisher: e.target.value })} size={14} />
      </label>
      <datalist id="artifact-publishers">
        {names.map((n) => (
          <option key={n} value={n} />
        ))}
      </datalist>
      <label>
        tag <input aria-label="tag" list="artifact-tags" value={draft.tag} onChange={(e) => set({ tag: e.target.value })} size={12} />
      </label>
      <datalist id="artifact-tags">
        {tags.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <label>
        status{" "}
        <select aria-label="status" value={draft.status} onChange={(e) => set({ status: e.target.value })}>
          <option value="">any</option>
          <option value="active">active</option>
          <option value="rolled_back">rolled back</option>
        </select>
      </label>
      <label className="check">
        <input type="checkbox" aria-label="stale only" checked={draft.stale} onChange={(e) => set({ stale: e.target.checked })} /> stale only
      </label>
      <button type="button" className="ghost" onClick={() => onChange(NO_FILTERS)} disabled={JSON.stringify(draft) === JSON.stringify(NO_FILTERS)}>
        Clear
      </button>
    </form>
  );
}
