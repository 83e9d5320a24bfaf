import { describe, expect, it } from "vitest";
import { nextSort, sortRows } from "./sort.ts";

const rows = [
  { name: "b", cost: 2 },
  { name: "a", cost: null },
  { name: "c", cost: 10 },
  { name: "d", cost: 2 },
];
const value = (r: (typeof rows)[number], key: "name" | "cost") => r[key];

describe("sortRows", () => {
  it("sorts numbers by value and text by locale, keeps ties in order, puts missing values last both ways", () => {
    expect(sortRows(rows, { key: "cost", dir: "desc" }, value).map((r) => r.name)).toEqual(["c", "b", "d", "a"]);
    expect(sortRows(rows, { key: "cost", dir: "asc" }, value).map((r) => r.name)).toEqual(["b", "d", "c", "a"]);
    expect(sortRows(rows, { key: "name", dir: "desc" }, value).map((r) => r.name)).toEqual(["d", "c", "b", "a"]);
  });

  it("flips the sorted column and starts numbers largest first", () => {
    expect(nextSort({ key: "name", dir: "asc" }, "name", false)).toEqual({ key: "name", dir: "desc" });
    expect(nextSort({ key: "name", dir: "asc" }, "cost", true)).toEqual({ key: "cost", dir: "desc" });
    expect(nextSort({ key: "cost", dir: "desc" }, "name", false)).toEqual({ key: "name", dir: "asc" });
    expect(nextSort(null, "cost", true)).toEqual({ key: "cost", dir: "desc" });
  });
});
