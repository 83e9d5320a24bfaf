/** Sorting a table by one column: numbers by value, text by locale, missing values last in either direction. */
type SortDir = "asc" | "desc";
export type Sort<K extends string> = { key: K; dir: SortDir };
export type SortValue = string | number | null;

export function sortRows<T, K extends string>(rows: readonly T[], sort: Sort<K>, valueOf: (row: T, key: K) => SortValue): T[] {
  const sign = sort.dir === "asc" ? 1 : -1;
  return rows
    .map((row, i) => ({ row, i, v: valueOf(row, sort.key) }))
    .sort((a, b) => {
      if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
      const c = typeof a.v === "number" && typeof b.v === "number" ? a.v - b.v : String(a.v).localeCompare(String(b.v));
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map((x) => x.row);
}

/** A click on the sorted column flips it; on another column (or the first click) sorts by it, numbers largest first. */
export function nextSort<K extends string>(current: Sort<K> | null, key: K, numeric: boolean): Sort<K> {
  if (current?.key === key) return { key, dir: current.dir === "asc" ? "desc" : "asc" };
  return { key, dir: numeric ? "desc" : "asc" };
}
