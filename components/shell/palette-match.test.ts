import { describe, expect, it } from "vitest";
import { matchScore, rankEntries, textScore, type PaletteEntry } from "./palette-match.ts";

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

describe("palette matching by words and recency", () => {
  const at = (label: string, when: number, text?: string, kind: PaletteEntry["kind"] = "contract"): PaletteEntry => ({
    kind,
    label,
    detail: "",
    text,
    at: when,
    href: `/${label}`,
  });

  it("finds an entry by the words of its text: each word starts a word of it, or at least is inside it", () => {
    expect(textScore("create user", "Create User API")).toBe(20);
    expect(textScore("user", "Build the user API")).toBe(20);
    expect(textScore("ser", "Build the user API")).toBe(60);
    expect(textScore("user admin", "Build the user API")).toBeNull();
    expect(textScore("", "anything")).toBeNull();
    const entries = [at("c-17", 1, "Create User API"), at("c-18", 2, "Delete users")];
    expect(rankEntries("Create User", entries).map((e) => e.label)).toEqual(["c-17"]);
    // Letters in order are for labels (ids, names) only: in a title they would find nearly anything.
    expect(rankEntries("cusa", entries)).toEqual([]);
  });

  it("puts the most recent first among equal matches, and actions first when nothing is typed", () => {
    const entries = [at("api-old", 1), at("api-new", 3), at("api-mid", 2), { ...at("Take snapshot", 0, "snapshot", "action"), at: undefined }];
    expect(rankEntries("api", entries).map((e) => e.label)).toEqual(["api-new", "api-mid", "api-old"]);
    expect(rankEntries("", entries).map((e) => e.label)).toEqual(["Take snapshot", "api-new", "api-mid", "api-old"]);
  });
});
