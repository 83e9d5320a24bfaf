import { describe, expect, it } from "vitest";
import { costDelta, freshTracker } from "./cost.ts";

describe("cost deltas", () => {
  it("a fresh process: each result's total minus the previous one", () => {
    const t = freshTracker(false, 0);
    expect(costDelta(t, 0.00889)).toBeCloseTo(0.00889);
    expect(costDelta(t, 0.017965)).toBeCloseTo(0.009075);
  });

  it("after resume on a CLI that restarts at zero (2.1.197): the first total is the turn's cost", () => {
    const t = { ...freshTracker(true, 0.05), cliVersion: "2.1.197" };
    expect(costDelta(t, 0.01)).toBeCloseTo(0.01);
    expect(costDelta(t, 0.03)).toBeCloseTo(0.02);
  });

  it("after resume on a CLI that continues the total (2.1.330): the prior cost is subtracted once", () => {
    const t = { ...freshTracker(true, 0.05), cliVersion: "2.1.330" };
    expect(costDelta(t, 0.06)).toBeCloseTo(0.01);
    expect(costDelta(t, 0.08)).toBeCloseTo(0.02);
  });

  it("never reports a negative cost", () => {
    const t = freshTracker(false, 0);
    costDelta(t, 0.5);
    expect(costDelta(t, 0.2)).toBe(0);
  });
});
