import { describe, expect, it } from "vitest";
import { lineOf, rowsOf, toHunkData } from "./hunks.ts";

const hunk = {
  header: "@@ -2,4 +2,4 @@ function f",
  oldStart: 2,
  oldLines: 4,
  newStart: 2,
  newLines: 4,
  lines: [" a", "-b", "+B", "+C", " d", "-e", "\\ No newline at end of file"],
};

describe("toHunkData", () => {
  it("numbers each change on its side and drops the no-newline marker row", () => {
    const data = toHunkData(hunk);
    expect(data.content).toBe("@@ -2,4 +2,4 @@ function f");
    expect(data.changes.map((c) => [c.type, c.content, lineOf(c)])).toEqual([
      ["normal", "a", { side: "new", line: 2 }],
      ["delete", "b", { side: "old", line: 3 }],
      ["insert", "B", { side: "new", line: 3 }],
      ["insert", "C", { side: "new", line: 4 }],
      ["normal", "d", { side: "new", line: 5 }],
      ["delete", "e", { side: "old", line: 5 }],
    ]);
    const normal = data.changes[4];
    expect(normal.type === "normal" && normal.oldLineNumber).toBe(4);
  });

  it("counts a file's rows with one header row per hunk", () => {
    expect(rowsOf({ path: "a", change: "modified", additions: 2, deletions: 2, binary: false, truncated: false, hunks: [hunk, hunk] })).toBe(16);
  });
});
