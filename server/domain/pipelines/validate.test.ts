/**
 * Validating a pipeline as it is typed: every issue createPipeline would refuse with, named by
 * field, and nothing written. Also: each dashboard sample event fires its own trigger.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreatePipelineInput, DryRunInput, TRIGGER_TYPES, ValidatePipelineInput } from "../../../lib/api/pipelines.ts";
import { sampleEvent } from "../../../lib/pipeline-samples.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { createPipeline, dryRun, validatePipeline } from "./pipelines.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const reopen = { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: ${data.failed} failures" };
const rule = (over: Record<string, unknown> = {}) => ({
  trigger: { type: "artifact_published", artifactType: "test-results" },
  condition: "data.failed > 0",
  action: reopen,
  ...over,
});

/** Validates, and checks that nothing was written or published meanwhile. */
async function validate(input: Record<string, unknown>) {
  const before = await snapshotTables(hub);
  const published = hub.events.length;
  const result = await validatePipeline(hub, ValidatePipelineInput.parse(input));
  expect(await snapshotTables(hub)).toEqual(before);
  expect(hub.events.length).toBe(published);
  return result;
}

describe("validatePipeline", () => {
  it("accepts what createPipeline accepts", async () => {
    expect(
      await validate({
        id: "ci-loop",
        rules: [rule(), { trigger: { type: "message_received", to: "qa-dev" }, action: { type: "broadcast", message: "${message.from}: ${message.text}" } }],
      }),
    ).toEqual({ valid: true, issues: [] });
  });

  it("names a bad condition with the same issue createPipeline refuses with", async () => {
    const input = { id: "ci-loop", rules: [rule({ condition: "artifact.verison >= 2" })] };
    const result = await validate(input);
    expect(result).toEqual({
      valid: false,
      issues: [{ field: "rules[0].condition", rule: "expression", message: "No such key: verison", received: "artifact.verison >= 2" }],
    });
    const refused = await refusedWithoutWriting(hub, () => createPipeline(hub, OPERATOR, CreatePipelineInput.parse(input)));
    expect(issues(refused)).toEqual(result.issues);
  });

  it("names a bad template, a misplaced filter and a missing field, each in its own rule", async () => {
    const result = await validate({
      rules: [
        rule({ action: { ...reopen, reason: "Tests failing: ${data.failed" } }),
        rule({ trigger: { type: "contract_completed", artifactType: "test-results" }, condition: undefined }),
        rule({ action: { type: "notify_session", message: "hi" } }),
        rule({ condition: "contract.status == 'failed'" }),
      ],
    });
    expect(result.valid).toBe(false);
    expect(result.issues.map((i) => [i.field, i.rule, i.message])).toEqual([
      ["rules[0].action.reason", "template", "has an unclosed ${ at position 15"],
      ["rules[1].trigger.artifactType", "applicable_filter", "does not apply to contract_completed triggers (they accept contractId, publisher)"],
      ["rules[1].action.reason", "template", "${data.failed}: Unknown variable: data"],
      ["rules[2].action.target", "invalid_type", "Invalid input: expected string, received undefined"],
      ["rules[3].condition", "expression", "Unknown variable: contract"],
    ]);
  });

  it("checks the id: its format, and that no pipeline has it yet", async () => {
    expect((await validate({ id: "Bad Id", rules: [rule()] })).issues).toEqual([expect.objectContaining({ field: "id", rule: "invalid_format" })]);
    await createPipeline(hub, OPERATOR, CreatePipelineInput.parse({ id: "taken", rules: [rule()] }));
    expect((await validate({ id: "taken", rules: [rule()] })).issues).toEqual([
      { field: "id", rule: "unique", message: "pipeline 'taken' already exists in team 'default'" },
    ]);
    expect((await validate({ rules: [rule()] })).valid).toBe(true);
  });

  it.each<[string, unknown, string, string]>([
    ["no rules", undefined, "rules", "expected array"],
    ["rules that are not a list", { trigger: "x" }, "rules", "expected array"],
    ["an empty list", [], "rules", "needs at least one rule"],
    ["too many rules", Array.from({ length: 101 }, () => rule()), "rules", "Too big"],
    ["a rule that is not an object", ["process.exit()"], "rules[0]", "expected object"],
    ["an unknown trigger", [rule({ trigger: { type: "file_changed" } })], "rules[0].trigger.type", "Invalid option"],
    ["an unknown action", [rule({ action: { type: "exec", command: "rm -rf /" } })], "rules[0].action.type", "must be one of notify_session"],
    ["process.exit() as a condition", [rule({ condition: "process.exit()" })], "rules[0].condition", "Unknown variable: process"],
    [
      "a constructor escape in a template",
      [rule({ action: { ...reopen, reason: "${constructor.constructor('return process')()}" } })],
      "rules[0].action.reason",
      "Unexpected character",
    ],
    [
      "a regex that backtracks",
      [rule({ condition: "artifact.id.matches('(a+)+$')" })],
      "rules[0].condition",
      "regular expressions (matches) are not available",
    ],
    ["a 1 MB condition", [rule({ condition: `data.x == '${"a".repeat(1024 * 1024)}'` })], "rules[0].condition", "must be at most 4096 characters"],
    [
      "prototype pollution",
      JSON.parse(
        '[{"__proto__": {"polluted": true}, "trigger": {"type": "artifact_published"}, "action": {"type": "broadcast", "message": "x"}, "condition": "{\'__proto__\': {\'polluted\': true}}.polluted == true"}]',
      ),
      "rules[0].condition",
      "no such overload",
    ],
  ])("answers hostile or malformed input (%s) with issues, writing nothing", async (_label, rules, field, says) => {
    const result = await validate({ id: "p", rules });
    expect(result.valid).toBe(false);
    expect(result.issues[0].field).toBe(field);
    expect(result.issues[0].message).toContain(says);
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});

describe("the dashboard's sample events", () => {
  it.each(TRIGGER_TYPES)("fire a %s rule in a dry run, filters included", async (type) => {
    const filters = type.startsWith("contract_")
      ? { contractId: "build-api" }
      : type === "message_received"
        ? { to: "qa-dev" }
        : type === "state_updated"
          ? { role: "reviewer", status: "blocked" as const }
          : { artifactType: "test-results" };
    const trigger = { type, ...filters };
    const result = await dryRun(
      hub,
      OPERATOR,
      DryRunInput.parse({ rule: { trigger, action: { type: "broadcast", message: "${event.type}" } }, event: sampleEvent(trigger) }),
    );
    expect(result).toMatchObject({ triggerMatched: true, conditionResult: null, action: { type: "broadcast" } });
  });

  it("give conditions over the data something to test", async () => {
    const trigger = { type: "artifact_published" as const, artifactType: "test-results" };
    const result = await dryRun(hub, OPERATOR, DryRunInput.parse({ rule: rule({ trigger }), event: sampleEvent(trigger) }));
    expect(result).toEqual({
      triggerMatched: true,
      conditionResult: true,
      action: { type: "reopen_contract", contractId: "build-api", reason: "Tests failing: 3 failures" },
    });
  });
});
