import { nextSort, type Sort } from "./sort.ts";

/** A column header that sorts the table: a button, with `aria-sort` saying the current order to screen readers. */
export function SortHeader<K extends string>({
  label,
  column,
  sort,
  onSort,
  numeric = false,
}: {
  label: string;
  column: K;
  sort: Sort<K> | null;
  onSort: (next: Sort<K>) => void;
  numeric?: boolean;
}) {
  const dir = sort?.key === column ? sort.dir : null;
  return (
    <th className={numeric ? "num" : undefined} aria-sort={dir === null ? "none" : dir === "asc" ? "ascending" : "descending"}>
      <button type="button" className="sort-header" onClick={() => onSort(nextSort(sort, column, numeric))}>
        {label}
        <span aria-hidden="true">{dir === null ? "" : dir === "asc" ? " ▲" : " ▼"}</span>
      </button>
    </th>
  );
}
