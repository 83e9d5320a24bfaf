import { describe, expect, it } from "vitest";
import { changeSummary, entitySummary, sides } from "./diff-summary.ts";

describe("snapshot diff summaries", () => {
  it("puts the telling fields first with their values and names the rest", () => {
    const fields = {
      status: { old: "pending", new: "completed" },
      outputs: { old: null, new: [{ artifactId: "api" }] },
      completedAt: { old: null, new: "2030-01-01" },
    };
    expect(changeSummary("contracts", fields)).toBe("status: pending → completed · also outputs, completedAt");
    expect(changeSummary("contracts", { inputs: { old: {}, new: { context: "GraphQL" } } })).toBe("inputs");
  });

  it("says what happened to an artifact's current version", () => {
    expect(changeSummary("artifacts", { version: { old: 1, new: 2 } })).toBe("v1 → v2");
    expect(changeSummary("artifacts", { version: { old: 1, new: null }, status: { old: "active", new: "rolled_back" } })).toBe("v1 → rolled back");
    expect(entitySummary("artifacts", { id: "a", version: 3, status: "active", archived: false })).toBe("v3");
    expect(entitySummary("contracts", { id: "c", status: "ready", assignee: "dev", title: "Work" })).toBe("ready · dev · Work");
  });

  it("splits field changes into the two sides a JSON diff compares", () => {
    expect(sides({ status: { old: "a", new: "b" } })).toEqual([{ status: "a" }, { status: "b" }]);
  });
});
