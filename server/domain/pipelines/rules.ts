/**
 * Checking rules when a pipeline is created, validated or dry-run: every condition and template
 * is parsed and type-checked against its trigger's variables, and filters must suit the trigger,
 * so a rule that is accepted can only fail at run time on the data, never on its own text.
 */
import { invalid, type Issue } from "../../errors.ts";
import { CreatePipelineInput, FILTERS, Rule, scopeOf, type Action, type Scope } from "../../../lib/api/pipelines.ts";
import { zodIssues } from "../zod-errors.ts";
import { checkExpression, checkTemplate, renderTemplate } from "./expressions.ts";
import type { EventContext } from "./triggers.ts";

/** The template fields of an action, with their paths. */
export function templates(action: Action): Array<[string, string]> {
  switch (action.type) {
    case "notify_session":
    case "send_to_session":
      return [
        ["target", action.target],
        ["message", action.message],
      ];
    case "broadcast":
      return [["message", action.message]];
    case "reopen_contract":
      return [
        ["contractId", action.contractId],
        ["reason", action.reason],
      ];
    case "create_contract": {
      const c = action.contract;
      return [
        ["contract.id", c.id],
        ["contract.title", c.title],
        ["contract.assignee", c.assignee],
        ...(c.description ? [["contract.description", c.description] as [string, string]] : []),
      ];
    }
    case "invalidate_downstream":
      return action.artifactId ? [["artifactId", action.artifactId]] : [];
  }
}

export function ruleIssues(rule: Rule, prefix: string): Issue[] {
  const issues: Issue[] = [];
  const scope: Scope = scopeOf(rule.trigger.type);
  for (const key of ["artifactType", "artifactId", "contractId", "publisher", "to"] as const) {
    if (rule.trigger[key] !== undefined && !FILTERS[scope].includes(key)) {
      issues.push({
        field: `${prefix}.trigger.${key}`,
        rule: "applicable_filter",
        message: `does not apply to ${rule.trigger.type} triggers (they accept ${FILTERS[scope].join(", ")})`,
      });
    }
  }
  if (rule.condition !== undefined) {
    const problem = checkExpression(rule.condition, scope, true);
    if (problem) issues.push({ field: `${prefix}.condition`, rule: "expression", message: problem, received: preview(rule.condition) });
  }
  for (const [path, text] of templates(rule.action)) {
    const problem = checkTemplate(text, scope);
    if (problem) issues.push({ field: `${prefix}.action.${path}`, rule: "template", message: problem, received: preview(text) });
  }
  if (rule.action.type === "invalidate_downstream" && !rule.action.artifactId && scope !== "artifact") {
    issues.push({ field: `${prefix}.action.artifactId`, rule: "required", message: `is required: a ${rule.trigger.type} event is not about an artifact` });
  }
  return issues;
}

const preview = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);

export const rulesIssues = (rules: Rule[]): Issue[] => rules.flatMap((r, i) => ruleIssues(r, `rules[${i}]`));

export function assertRules(rules: Rule[]): void {
  const issues = rulesIssues(rules);
  if (issues.length) throw invalid(issues);
}

/**
 * Every problem of a rule list that has not been parsed yet: the schema's (as every door parses
 * it), then the expression and filter checks for each rule the schema accepted, so one malformed
 * rule does not hide a bad condition in another. A list the schema refuses as a whole (not an
 * array, too many rules) is not looked into.
 */
export function unparsedRulesIssues(raw: unknown): Issue[] {
  const parsed = CreatePipelineInput.shape.rules.safeParse(raw, { reportInput: true });
  if (parsed.success) return rulesIssues(parsed.data);
  const schemaIssues = zodIssues(parsed.error, "rules");
  if (parsed.error.issues.some((i) => typeof i.path[0] !== "number")) return schemaIssues;
  const broken = new Set(parsed.error.issues.map((i) => i.path[0]));
  const checked = (raw as unknown[]).flatMap((r, i) => (broken.has(i) ? [] : ruleIssues(Rule.parse(r), `rules[${i}]`)));
  return [...schemaIssues, ...checked].sort((a, b) => ruleIndex(a) - ruleIndex(b));
}

const ruleIndex = (i: Issue) => Number(/^rules\[(\d+)\]/.exec(i.field)?.[1] ?? -1);

/** The action with every template rendered, for dry runs: what would be done, without doing it. */
export function renderedAction(action: Action, ctx: EventContext): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(action) as Record<string, unknown>;
  for (const [path, text] of templates(action)) {
    const keys = path.split(".");
    let target = out;
    for (const k of keys.slice(0, -1)) target = target[k] as Record<string, unknown>;
    target[keys[keys.length - 1]] = renderTemplate(text, ctx.scope, ctx.vars);
  }
  return out;
}
