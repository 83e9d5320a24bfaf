import { describe, expect, it } from "vitest";
import { subjectHref } from "./subject-link.ts";

describe("subjectHref", () => {
  it("links artifacts (without the version), contracts, sessions, pipelines and snapshots", () => {
    expect(subjectHref("artifact:api-spec@v2")).toBe("/artifacts/api-spec");
    expect(subjectHref("artifact:api-spec")).toBe("/artifacts/api-spec");
    expect(subjectHref("contract:build api")).toBe("/canvas?contract=build%20api");
    expect(subjectHref("session:qa")).toBe("/sessions/qa");
    expect(subjectHref("pipeline:ci-loop")).toBe("/pipelines/ci-loop");
    expect(subjectHref("snapshot:s1")).toBe("/snapshots");
  });

  it("gives null for what no page shows alone", () => {
    expect(subjectHref("team:default")).toBeNull();
    expect(subjectHref("pair:a|b")).toBeNull();
    expect(subjectHref("nothing")).toBeNull();
  });
});
