"use client";

import { useState } from "react";
import { SortHeader } from "./SortHeader.tsx";
import { sortRows, type Sort, type SortValue } from "./sort.ts";

/**
 * A table's rows in the given order until a column header is clicked, then sorted by that column.
 *
 * @example
 * const { rows, header } = useSort(items, (row, key: "name" | "cost") => row[key]);
 * <thead><tr>{header("Name", "name")}{header("Cost", "cost", true)}</tr></thead>
 */
export function useSort<T, K extends string>(items: readonly T[], valueOf: (row: T, key: K) => SortValue) {
  const [sort, setSort] = useState<Sort<K> | null>(null);
  const rows = sort ? sortRows(items, sort, valueOf) : items;
  const header = (label: string, column: K, numeric = false) => (
    <SortHeader key={column} label={label} column={column} sort={sort} onSort={setSort} numeric={numeric} />
  );
  return { rows, header };
}

/** The sum of a column, for a table's totals row. */
export const total = <T,>(items: readonly T[], f: (row: T) => number) => items.reduce((n, row) => n + f(row), 0);
