/**
 * Hostile conditions and templates: each is refused when the pipeline is created, or, if it is
 * valid CEL, evaluates harmlessly inside the event's own variables. Nothing outside the event
 * is reachable and the process keeps working.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { CreatePipelineInput, PipelineLogInput } from "../../../lib/api/pipelines.ts";
import { refusedWithoutWriting, issues } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { OPERATOR } from "../principal.ts";
import { fieldPath } from "../zod-errors.ts";
import { createPipeline, getPipeline } from "./pipelines.service.ts";
import { PipelineRunner } from "./runner.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const withCondition = (condition: string) => ({
  id: "hostile",
  rules: [{ trigger: { type: "artifact_published" }, condition, action: { type: "broadcast", message: "x" } }],
});
const withTemplate = (message: string) => ({
  id: "hostile",
  rules: [{ trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "ops", message } }],
});

/**
 * The first problem reported for an input, whichever door refuses it first: the shared zod
 * schema (as the HTTP API, CLI and MCP parse it) or the domain's own checks. Nothing is written.
 */
async function refusedAtCreation(input: unknown): Promise<{ field: string; message: string }> {
  const parsed = CreatePipelineInput.safeParse(input);
  if (!parsed.success) return { field: fieldPath("", parsed.error.issues[0].path), message: parsed.error.issues[0].message };
  const err = await refusedWithoutWriting(hub, () => createPipeline(hub, OPERATOR, parsed.data));
  return issues(err)[0];
}

const nested = (n: number) => `${"(".repeat(n)}true${")".repeat(n)}`;

/** [label, condition, what the refusal says] */
const refusedConditions: Array<[string, string, string]> = [
  ["process.exit()", "process.exit()", "Unknown variable: process"],
  ["constructor escape", "constructor.constructor('return process')()", "Unexpected character: '('"],
  ["constructor as a variable", "constructor.name == 'Function'", "Unknown variable: constructor"],
  ["require('fs')", "require('fs')", "found no matching overload for 'require(string)'"],
  ["this", "this", "Unknown variable: this"],
  ["globalThis", "globalThis", "Unknown variable: globalThis"],
  ["globalThis.process", "globalThis.process.exit(1)", "Unknown variable: globalThis"],
  ["eval", "eval('1')", "found no matching overload for 'eval(string)'"],
  ["Function", "Function('return 1')()", "Unexpected character: '('"],
  ["import()", "import('fs')", ""],
  ["string constructor", "''.constructor.constructor('return process')()", "Unexpected character: '('"],
  ["string constructor, no call", "''.constructor == null", "Cannot index type 'string'"],
  ["string prototype chain", "'x'.__proto__", "Cannot index type 'string'"],
  ["JS property call on a string", "'abc'.toString()", "found no matching overload for 'string.toString()'"],
  ["another trigger's variable", "contract.status == 'failed'", "Unknown variable: contract"],
  ["a field that does not exist", "artifact.verison >= 2", "No such key: verison"],
  ["not a condition", "artifact.id", "must be a condition (bool), but it is string"],
  ["1 MB expression", `data.x == '${"a".repeat(1024 * 1024)}'`, "must be at most 4096 characters"],
  ["10,000 nested parentheses", nested(10_000), "must be at most 4096 characters"],
  ["2,000 nested parentheses", nested(2000), "Exceeded maxDepth (32)"],
  ["huge AST", Array.from({ length: 150 }, (_, i) => `data.a${i} > 0`).join(" || "), "Exceeded maxAstNodes (256)"],
  ["prototype pollution through a map literal", "{'__proto__': {'polluted': true}}.polluted == true", "no such overload"],
  ["hasOwnProperty", "data.hasOwnProperty('x')", "found no matching overload for 'dyn.hasOwnProperty(string)'"],
  ["ReDoS through matches", "artifact.id.matches('(a+)+$')", "regular expressions (matches) are not available"],
  ["matches as a function", "matches(artifact.id, '(a+)+$')", "regular expressions (matches) are not available"],
  ["nested comprehension", "data.l.all(x, data.l.exists(y, x == y))", "inside another comprehension is not allowed"],
  ["deeply nested comprehension", "data.l.map(a, data.l.map(b, data.l.map(c, a)))", "inside another comprehension is not allowed"],
  ["JS syntax", "data.failed > 0; process.exit()", ""],
  ["assignment", "data.failed = 0", ""],
  ["template literal syntax", "`${process.exit()}`", ""],
  ["arrow function", "(() => true)()", ""],
  ["empty", "   ", "is empty"],
];

/** Valid CEL that reaches for things outside the event: it runs, and fails or yields nothing. */
const harmlessConditions: Array<[string, string]> = [
  ["data.constructor", "data.constructor != null"],
  ["data.__proto__", "has(data.__proto__)"],
  ["bracket constructor", "data['constructor'] == null"],
  ["prototype pollution through dyn", "dyn({'__proto__': {'polluted': true}}).polluted == true"],
  ["toString on data", "data.toString == null"],
  ["division by zero", "1 / 0 == 0"],
  ["integer overflow", "9223372036854775807 + 1 > 0"],
  ["index out of range", "data.list[99] == 1"],
];

describe("hostile conditions", () => {
  it.each(refusedConditions)("refuses %s at creation", async (_label, condition, says) => {
    const issue = await refusedAtCreation(withCondition(condition));
    expect(issue.field).toBe("rules[0].condition");
    expect(issue.message).toContain(says);
  });

  it("evaluates valid but hostile CEL harmlessly, inside the event only", async () => {
    const rules = harmlessConditions.map(([name, condition]) => ({
      name,
      trigger: { type: "artifact_published" },
      condition,
      action: { type: "notify_session", target: "ops", message: "reached" },
    }));
    await createPipeline(hub, OPERATOR, CreatePipelineInput.parse({ id: "harmless", rules }));
    await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: "doc", type: "custom", data: { list: [1, 2], x: 1 } }));
    await new PipelineRunner(hub).drain();
    const log = (await getPipeline(hub, PipelineLogInput.parse({ id: "harmless", limit: 100 }))).log;
    expect(log).toHaveLength(harmlessConditions.length);
    for (const entry of log) expect([entry.ruleName, entry.outcome]).toEqual([entry.ruleName, expect.stringMatching(/^condition_(error|false)$/)]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
    expect(typeof process.exit).toBe("function");
  });
});

describe("hostile templates", () => {
  it.each([
    ["process in a template", "${process.exit()}", "Unknown variable: process"],
    ["constructor in a template", "${constructor.constructor('return this')()}", "Unexpected character: '('"],
    ["constructor variable in a template", "${constructor}", "Unknown variable: constructor"],
    ["require in a template", "x ${require('child_process')} y", "found no matching overload"],
    ["unclosed template", "Tests failing: ${data.failed", "unclosed ${"],
    ["ReDoS in a template", "${artifact.id.matches('(a+)+$')}", "regular expressions (matches) are not available"],
    ["a field that does not exist", "${artifact.nope}", "No such key: nope"],
    ["1 MB template", `\${'${"a".repeat(5000)}'}`, "must be at most 4096 characters"],
  ])("refuses %s at creation", async (_label, message, says) => {
    const issue = await refusedAtCreation(withTemplate(message));
    expect(issue.field).toBe("rules[0].action.message");
    expect(issue.message).toContain(says);
  });

  it("renders braces and quotes inside template expressions", async () => {
    await createPipeline(hub, OPERATOR, CreatePipelineInput.parse(withTemplate("map ${{'a': 1}['a']} and ${'}'} and ${\"${\"}")));
    await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: "doc", type: "custom", data: {} }));
    await new PipelineRunner(hub).drain();
    const [entry] = (await getPipeline(hub, PipelineLogInput.parse({ id: "hostile" }))).log;
    expect(entry.detail).toMatchObject({ message: "map 1 and } and ${" });
  });
});
