import { describe, expect, it } from "vitest";
import { matchScore, rankEntries, type PaletteEntry } from "./palette-match.ts";

const entry = (kind: PaletteEntry["kind"], label: string): PaletteEntry => ({ kind, label, detail: "", href: `/${label}` });

describe("palette matching", () => {
  it("finds letters in order, prefixes and substrings first", () => {
    expect(matchScore("apdv", "api-dev")).not.toBeNull();
    expect(matchScore("vd", "api-dev")).toBeNull();
    expect(matchScore("api", "api-dev")).toBe(0);
    expect(matchScore("dev", "api-dev")).toBe(5);
    expect(matchScore("ad", "api-dev")!).toBeGreaterThan(matchScore("dev", "api-dev")!);
  });

  it("ranks the tightest match first, keeps the given order on ties, and limits", () => {
    const entries = [entry("page", "Sessions"), entry("session", "test-session"), entry("contract", "session-store"), entry("artifact", "s-e-s-s")];
    expect(rankEntries("sess", entries).map((e) => e.label)).toEqual(["Sessions", "session-store", "test-session", "s-e-s-s"]);
    expect(rankEntries("", entries, 2).map((e) => e.label)).toEqual(["Sessions", "test-session"]);
    expect(rankEntries("zzz", entries)).toEqual([]);
  });
});
