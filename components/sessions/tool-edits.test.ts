import { describe, expect, it } from "vitest";
import { toolEdit } from "./tool-edits.ts";

describe("toolEdit", () => {
  it("turns an Edit into one hunk of removed and added lines with context", () => {
    const f = toolEdit("Edit", { file_path: "/w/api.ts", old_string: "a\nb\nc\n", new_string: "a\nB\nc\n" });
    expect(f).toMatchObject({ path: "/w/api.ts", change: "modified", additions: 1, deletions: 1 });
    expect(f!.hunks).toEqual([{ header: "@@ -1,3 +1,3 @@", oldStart: 1, oldLines: 3, newStart: 1, newLines: 3, lines: [" a", "-b", "+B", " c"] }]);
  });

  it("shows a Write as an added file and a MultiEdit as one hunk per edit", () => {
    expect(toolEdit("Write", { file_path: "n.md", content: "# t\nx\n" })).toMatchObject({ change: "added", additions: 2, deletions: 0 });
    const multi = toolEdit("MultiEdit", {
      file_path: "m.ts",
      edits: [
        { old_string: "x", new_string: "y" },
        { old_string: "p\nq", new_string: "p" },
      ],
    });
    expect(multi!.hunks.map((h) => h.lines)).toEqual([
      ["-x", "+y"],
      [" p", "-q"],
    ]);
  });

  it("gives null for other tools and for inputs without the strings", () => {
    expect(toolEdit("Bash", { command: "ls" })).toBeNull();
    expect(toolEdit("Edit", { file_path: "a", old_string: "x" })).toBeNull();
    expect(toolEdit("MultiEdit", { file_path: "a", edits: "x" })).toBeNull();
  });
});
