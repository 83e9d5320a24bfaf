import { describe, expect, it } from "vitest";
import { diffJson } from "./json-diff.ts";

describe("diffJson", () => {
  it("reports added, removed, changed and unchanged leaves by path", () => {
    const before = { endpoints: [{ method: "POST", path: "/login" }], auth: "jwt", tags: ["a"] };
    const after = {
      endpoints: [
        { method: "POST", path: "/signin" },
        { method: "GET", path: "/me" },
      ],
      tags: ["a"],
      version: 2,
    };
    expect(diffJson(before, after)).toEqual([
      { path: "endpoints[0].method", kind: "same", before: "POST", after: "POST" },
      { path: "endpoints[0].path", kind: "changed", before: "/login", after: "/signin" },
      { path: "auth", kind: "removed", before: "jwt" },
      { path: "tags[0]", kind: "same", before: "a", after: "a" },
      { path: "endpoints[1].method", kind: "added", after: "GET" },
      { path: "endpoints[1].path", kind: "added", after: "/me" },
      { path: "version", kind: "added", after: 2 },
    ]);
  });

  it("treats empty containers and scalars as leaves, and a whole value at the root", () => {
    expect(diffJson({ a: [] }, { a: {} })).toEqual([{ path: "a", kind: "changed", before: [], after: {} }]);
    expect(diffJson(1, 2)).toEqual([{ path: "", kind: "changed", before: 1, after: 2 }]);
    expect(diffJson(undefined, { x: 1 })).toEqual([{ path: "x", kind: "added", after: 1 }]);
    expect(diffJson({ x: 1 }, undefined)).toEqual([{ path: "x", kind: "removed", before: 1 }]);
  });
});
