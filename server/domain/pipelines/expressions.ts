/**
 * Pipeline conditions and `${…}` templates, in CEL (@marcbachmann/cel-js): an interpreter with
 * no access to anything but the variables we hand it (never eval, new Function or vm: docs/architecture.md#no-code-from-data).
 *
 * On top of the library's own parse limits we refuse, when a pipeline is created:
 * - `matches()`: JS regular expressions backtrack, so one hostile pattern could stall the hub;
 * - a comprehension (map, filter, exists, all, exists_one) inside another one: over a 1 MiB
 *   artifact that is quadratic work, and nesting deeper would never finish.
 * Every expression is also type-checked against the variables its trigger provides, so a typo
 * such as `artifact.verison` is an error at creation, not at 3 a.m.
 */
import { Environment, type ASTNode } from "@marcbachmann/cel-js";
import { MAX_EXPRESSION_CHARS, type Scope } from "../../../lib/api/pipelines.ts";

const LIMITS = { maxAstNodes: 256, maxDepth: 32, maxListElements: 100, maxMapEntries: 100, maxCallArguments: 8 };
const COMPREHENSIONS = new Set(["map", "filter", "exists", "all", "exists_one"]);
const FORBIDDEN = new Map([["matches", "regular expressions (matches) are not available in pipeline expressions: use contains, startsWith or endsWith"]]);

function makeEnvironment(scope: Scope): Environment {
  const env = new Environment({ limits: LIMITS }).registerType("Event", {
    fields: { id: "int", type: "string", subject: "string", principal: "string", depth: "int", at: "string", team: "string", payload: "map" },
  });
  env.registerVariable("event", "Event");
  if (scope === "artifact") {
    env.registerType("Artifact", {
      fields: { id: "string", type: "string", name: "string", version: "int", publisher: "string", contractId: "dyn", summary: "string" },
    });
    env.registerVariable("artifact", "Artifact").registerVariable("data", "dyn");
  } else if (scope === "contract") {
    env.registerType("Contract", {
      fields: {
        id: "string",
        title: "string",
        status: "string",
        assignee: "string",
        assigner: "string",
        priority: "string",
        retryCount: "int",
        maxRetries: "int",
        statusReason: "dyn",
        inputs: "map",
      },
    });
    env.registerVariable("contract", "Contract");
  } else if (scope === "state") {
    env.registerType("State", {
      fields: { id: "int", member: "string", role: "string", status: "string", task: "string", ref: "string", keyFindings: "list", verification: "string" },
    });
    env.registerVariable("state", "State");
  } else {
    env.registerType("Message", { fields: { id: "int", from: "string", to: "string", kind: "string", text: "string" } });
    env.registerVariable("message", "Message");
  }
  return env;
}

const environments = new Map<Scope, Environment>();
const envFor = (scope: Scope) => environments.get(scope) ?? environments.set(scope, makeEnvironment(scope)).get(scope)!;

/** The first line of a library error, which carries the message without the ASCII-art pointer. */
const firstLine = (e: unknown) => String((e as Error)?.message ?? e).split("\n")[0];

function walk(node: unknown, visit: (n: ASTNode, insideComprehension: boolean) => string | null, inside = false): string | null {
  if (Array.isArray(node)) {
    for (const n of node) {
      const problem = walk(n, visit, inside);
      if (problem) return problem;
    }
    return null;
  }
  if (!node || typeof node !== "object" || !("op" in node)) return null;
  const n = node as ASTNode & { op: string; args: unknown };
  const problem = visit(n, inside);
  if (problem) return problem;
  if (n.op === "rcall" && Array.isArray(n.args) && COMPREHENSIONS.has(n.args[0] as string)) {
    // The receiver runs once; only the body runs per element.
    return walk(n.args[1], visit, inside) ?? walk(n.args[2], visit, true);
  }
  return walk(n.args, visit, inside);
}

function policyProblem(ast: ASTNode): string | null {
  return walk(ast, (n, inside) => {
    const args = (n as { args: unknown }).args;
    if ((n.op === "rcall" || n.op === "call") && Array.isArray(args)) {
      const name = args[0] as string;
      if (FORBIDDEN.has(name)) return FORBIDDEN.get(name)!;
      if (n.op === "rcall" && COMPREHENSIONS.has(name) && inside)
        return `a '${name}' inside another comprehension is not allowed: it takes time quadratic in the data`;
    }
    return null;
  });
}

type Compiled = { run: (ctx: Record<string, unknown>) => unknown; type: string };
const compiled = new Map<string, Compiled>();
const COMPILED_CACHE = 2000;

/** Parses, type-checks and vets an expression; returns the problem, or null when it is fine. */
export function checkExpression(source: string, scope: Scope, wantBool: boolean): string | null {
  try {
    compile(source, scope, wantBool);
    return null;
  } catch (e) {
    return firstLine(e);
  }
}

function compile(source: string, scope: Scope, wantBool: boolean): Compiled {
  const result = compileOnce(source, scope);
  if (wantBool && result.type !== "bool" && result.type !== "dyn") throw new Error(`must be a condition (bool), but it is ${result.type}`);
  return result;
}

function compileOnce(source: string, scope: Scope): Compiled {
  const key = `${scope}\u0000${source}`;
  const hit = compiled.get(key);
  if (hit) return hit;
  if (source.length > MAX_EXPRESSION_CHARS) throw new Error(`is ${source.length} characters long; at most ${MAX_EXPRESSION_CHARS} are allowed`);
  if (source.trim() === "") throw new Error("is empty");
  const env = envFor(scope);
  let parsed: ReturnType<Environment["parse"]>;
  try {
    parsed = env.parse(source);
  } catch (e) {
    // A stack overflow here means absurd nesting; the limits normally catch it first.
    throw new Error(e instanceof RangeError ? "is nested too deeply" : firstLine(e), { cause: e });
  }
  const problem = policyProblem(parsed.ast);
  if (problem) throw new Error(problem);
  const checked = env.check(source);
  if (!checked.valid) throw new Error(firstLine(checked.error));
  const result = { run: (ctx: Record<string, unknown>) => parsed(ctx), type: checked.type ?? "dyn" };
  if (compiled.size >= COMPILED_CACHE) compiled.delete(compiled.keys().next().value as string);
  compiled.set(key, result);
  return result;
}

export class EvaluationFailure extends Error {}

/** Evaluates a condition; a runtime error (missing key, overflow, …) is an EvaluationFailure, never a crash. */
export function evaluateCondition(source: string, scope: Scope, ctx: Record<string, unknown>): boolean {
  const value = evaluate(source, scope, ctx, true);
  if (typeof value !== "boolean") throw new EvaluationFailure(`evaluated to ${describe(value)}, not true or false`);
  return value;
}

function evaluate(source: string, scope: Scope, ctx: Record<string, unknown>, wantBool: boolean): unknown {
  try {
    return compile(source, scope, wantBool).run(ctx);
  } catch (e) {
    throw new EvaluationFailure(firstLine(e));
  }
}

const describe = (v: unknown) => (typeof v === "bigint" ? `the number ${v}` : `a ${v === null ? "null" : typeof v}`);

// ── Templates ─────────────────────────────────────────────────────────────────

export type TemplatePart = string | { expr: string };

/** Splits "Tests failing: ${data.failed}" into text and expressions; braces and strings inside an expression are respected. */
export function parseTemplate(text: string): TemplatePart[] {
  const parts: TemplatePart[] = [];
  let i = 0;
  let literal = "";
  while (i < text.length) {
    if (text.startsWith("${", i)) {
      const end = closingBrace(text, i + 2);
      if (end < 0) throw new Error(`has an unclosed \${ at position ${i}`);
      if (literal) parts.push(literal);
      literal = "";
      parts.push({ expr: text.slice(i + 2, end) });
      i = end + 1;
    } else {
      literal += text[i++];
    }
  }
  if (literal) parts.push(literal);
  return parts;
}

function closingBrace(text: string, from: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "{") depth++;
    else if (c === "}") {
      if (depth === 0) return i;
      depth--;
    }
  }
  return -1;
}

export function checkTemplate(text: string, scope: Scope): string | null {
  let parts: TemplatePart[];
  try {
    parts = parseTemplate(text);
  } catch (e) {
    return firstLine(e);
  }
  for (const p of parts) {
    if (typeof p === "string") continue;
    const problem = checkExpression(p.expr, scope, false);
    if (problem) return `\${${p.expr.length > 60 ? `${p.expr.slice(0, 57)}…` : p.expr}}: ${problem}`;
  }
  return null;
}

export function renderTemplate(text: string, scope: Scope, ctx: Record<string, unknown>): string {
  return parseTemplate(text)
    .map((p) => (typeof p === "string" ? p : stringify(evaluate(p.expr, scope, ctx, false))))
    .join("");
}

function stringify(v: unknown): string {
  if (typeof v === "string") return v;
  if (typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return String(v);
  if (v === null || v === undefined) return "null";
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x instanceof Map ? Object.fromEntries(x) : x));
}

/**
 * JSON → CEL values: whole numbers become CEL ints, so `data.failed + 1` works as people expect
 * (JSON has only doubles, and CEL does not mix int and double in arithmetic).
 */
export function toCel(value: unknown): unknown {
  if (typeof value === "number") return Number.isInteger(value) && Number.isSafeInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(toCel);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = toCel(v);
    return out;
  }
  return value;
}
