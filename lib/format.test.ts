import { describe, expect, it } from "vitest";
import { duration, usd } from "./format.ts";

describe("format", () => {
  it("money", () => {
    expect([usd(0), usd(0.011), usd(1.5), usd(12.345)]).toEqual(["$0.00", "$0.0110", "$1.50", "$12.35"]);
  });
  it("durations", () => {
    expect([duration(850), duration(4200), duration(185_000), duration(300_000), duration(7_800_000), duration(7_200_000)]).toEqual(["850 ms", "4.2 s", "3 min 05 s", "5 min", "2 h 10 min", "2 h"]);
  });
});
