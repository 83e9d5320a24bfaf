import { describe, expect, it } from "vitest";
import { Rule } from "../../lib/api/pipelines.ts";
import { formPaths, newRule, setAt, toSend, withAction, withTrigger } from "./rule-draft.ts";

describe("the rule editor's model", () => {
  it("sends empty optional fields as absent, so an empty condition is no condition", () => {
    const typed = setAt(setAt(newRule(), "action.target", "qa-dev"), "action.message", "hi");
    expect(toSend({ ...typed, name: "", trigger: { type: "artifact_published", artifactType: "" }, rateLimit: { max: "", perSeconds: "" } })).toEqual({
      trigger: { type: "artifact_published" },
      action: { type: "notify_session", target: "qa-dev", message: "hi" },
    });
    expect(Rule.safeParse(toSend(typed)).success).toBe(true);
  });

  it("turns rate limits into numbers, and leaves a half-filled one for the hub to name", () => {
    expect(toSend({ ...newRule(), rateLimit: { max: "5", perSeconds: "60" } })).toMatchObject({ rateLimit: { max: 5, perSeconds: 60 } });
    expect(toSend({ ...newRule(), rateLimit: { max: "", perSeconds: "60" } })).toMatchObject({ rateLimit: { max: undefined, perSeconds: 60 } });
    expect(toSend({ ...newRule(), rateLimit: { max: "lots", perSeconds: "60" } })).toMatchObject({ rateLimit: { max: "lots" } });
  });

  it("keeps the filters that still apply when the trigger changes", () => {
    const rule = { ...newRule(), trigger: { type: "artifact_published", artifactType: "test-results", publisher: "qa-dev" } };
    expect(withTrigger(rule, "contract_failed").trigger).toEqual({ type: "contract_failed", publisher: "qa-dev" });
    expect(withTrigger(rule, "artifact_stale").trigger).toEqual({ type: "artifact_stale", artifactType: "test-results", publisher: "qa-dev" });
  });

  it("carries what was typed into an action field of the same name", () => {
    const rule = setAt(newRule(), "action.message", "API changed");
    expect(withAction(rule, "broadcast").action).toEqual({ type: "broadcast", message: "API changed" });
    expect(withAction(rule, "create_contract").action).toEqual({ type: "create_contract", contract: { id: "", title: "", assignee: "", description: "" } });
  });

  it("knows which fields it shows, so issues about others are listed apart", () => {
    const rule = withAction(withTrigger(newRule(), "contract_failed"), "reopen_contract");
    expect(formPaths(rule)).toEqual(expect.arrayContaining(["condition", "trigger.contractId", "action.contractId", "action.reason", "rateLimit.max"]));
    expect(formPaths(rule)).not.toContain("trigger.artifactType");
  });

  it("sends what is not an object as it is, for the hub to refuse", () => {
    expect(toSend("x")).toBe("x");
    expect(toSend(null)).toBe(null);
  });
});
