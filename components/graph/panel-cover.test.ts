import { describe, expect, it } from "vitest";
import { coveredBelow } from "./panel-cover.ts";

const box = (left: number, top: number, width: number, height: number) => ({ left, top, right: left + width, bottom: top + height, height });
const canvas = box(12, 177, 366, 590);

describe("coveredBelow", () => {
  it("is the part of the canvas under a sheet rising from the screen's foot", () => {
    expect(coveredBelow(canvas, box(0, 464, 390, 380))).toBe(767 - 464);
  });
  it("is nothing for a panel beside the canvas, below it, or none", () => {
    expect(coveredBelow(box(222, 80, 760, 600), box(994, 80, 360, 600))).toBe(0);
    expect(coveredBelow(canvas, box(0, 800, 390, 44))).toBe(0);
    expect(coveredBelow(canvas, undefined)).toBe(0);
    expect(coveredBelow(undefined, box(0, 464, 390, 380))).toBe(0);
  });
  it("is at most the canvas's height", () => {
    expect(coveredBelow(canvas, box(0, 0, 390, 844))).toBe(590);
  });
});
