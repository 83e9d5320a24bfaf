import { describe, expect, it } from "vitest";
import { clock, compactCount, dollars, duration, perMTok, tokens, usd } from "./format.ts";

describe("format", () => {
  it("prices per million tokens as price lists write them", () => {
    expect([5, 30, 0.75, 4.5, 0.075, 0.5].map(perMTok)).toEqual(["$5", "$30", "$0.75", "$4.50", "$0.075", "$0.50"]);
  });
  it("money", () => {
    expect([usd(0), usd(0.011), usd(1.5), usd(12.345)]).toEqual(["$0.00", "$0.0110", "$1.50", "$12.35"]);
  });
  it("money in sentences: cents, more decimals only when cents would hide the amount", () => {
    expect([dollars(0.4), dollars(0.05), dollars(2), dollars(0.0089), dollars(0.41234), dollars(0.0500001)]).toEqual([
      "$0.40",
      "$0.05",
      "$2.00",
      "$0.0089",
      "$0.4123",
      "$0.05",
    ]);
  });
  it("clocks", () => {
    expect([clock(3000), clock(300_000), clock(3_587_000), clock(3_600_000), clock(-5)]).toEqual(["0:03", "5:00", "59:47", "1:00:00", "0:00"]);
  });
  it("durations", () => {
    expect([duration(850), duration(4200), duration(185_000), duration(300_000), duration(7_800_000), duration(7_200_000)]).toEqual([
      "850 ms",
      "4.2 s",
      "3 min 05 s",
      "5 min",
      "2 h 10 min",
      "2 h",
    ]);
  });
});

describe("token counts", () => {
  it("shows three significant digits at most, trailing zeros dropped", () => {
    expect([850, 1000, 4250, 12_340, 120_000, 1_200_000, 25_000_000].map(compactCount)).toEqual(["850", "1k", "4.25k", "12.3k", "120k", "1.2M", "25M"]);
    expect([tokens(1), tokens(500_000)]).toEqual(["1 token", "500k tokens"]);
  });
});
