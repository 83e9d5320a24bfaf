import { describe, expect, it } from "vitest";
import { deeperThan, MAX_JSON_DEPTH } from "./json-depth.ts";

const nested = (n: number): unknown => JSON.parse("[".repeat(n) + "]".repeat(n));

describe("JSON depth", () => {
  it("counts levels of arrays and objects", () => {
    expect(deeperThan(1, 0)).toBe(false);
    expect(deeperThan({}, 1)).toBe(false);
    expect(deeperThan({ a: [] }, 1)).toBe(true);
    expect(deeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(deeperThan({ a: [{ b: {} }] }, 3)).toBe(true);
    expect(deeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(deeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
  });

  it("walks a million levels without overflowing the stack", () => {
    expect(deeperThan(nested(1_000_000))).toBe(true);
  });
});
