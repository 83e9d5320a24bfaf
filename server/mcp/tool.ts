/**
 * An MCP tool as both transports (/mcp and `teamhub mcp`) offer it: its zod input (the shared lib/api schema with a
 * description per field for models), its annotations, and one call into the services table. Most are an operation's
 * definition (server/operations/); a few are an agent's way into one (`tool`). Inputs are checked here, not by the SDK,
 * so a bad call gets the same "field: rule" message as the HTTP API, and names that try to stand in for the caller's
 * identity are refused outright.
 */
import { z } from "zod";
import { DomainError } from "../errors.ts";
import { zodIssues } from "../domain/zod-errors.ts";
import { whoMay, type Operation } from "../domain/auth/capabilities.ts";
import type { Principal } from "../domain/principal.ts";
import type { Services } from "../services.ts";
import { ErrorBody, type Effect, type Endpoint } from "../../lib/api/endpoint.ts";
import type { Definition, May } from "../operations/define.ts";
import { serviceOf } from "../operations/index.ts";
import { DEPTH_RULE, deeperThan } from "../http/json-depth.ts";

export type ToolAnnotations = { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };

export type ToolDef = {
  name: string;
  title: string;
  description: string;
  /** Strict, with per-field descriptions: what clients see, and what refuses unknown arguments. */
  input: z.ZodObject;
  /** The shared lib/api schema itself: its refinements and defaults apply after the strict check. */
  schema: z.ZodType;
  annotations: ToolAnnotations;
  /** The catalog operation it carries out, when it is one (docs/mcp.md#what-a-client-gets). */
  endpoint: Endpoint | null;
  run: (s: Services, actor: Principal, input: never, signal?: AbortSignal) => Promise<unknown>;
};

const ANNOTATIONS: Record<Effect, ToolAnnotations> = {
  read: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  write: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
};

type Run<S extends z.ZodObject> = (s: Services, actor: Principal, input: z.infer<S>, signal?: AbortSignal) => Promise<unknown>;

/** The schema with `describe`'s text on its fields, strict: what clients see, and what refuses unknown arguments. */
function described(schema: z.ZodObject, describe: Partial<Record<string, string>> = {}): z.ZodObject {
  return z.strictObject(Object.fromEntries(Object.entries(schema.shape).map(([k, v]) => [k, describe[k] ? (v as z.ZodType).describe(describe[k]) : v])));
}

/** Who may call it, as the tool's description ends: nothing when every member may. */
function mayText(may: May): string {
  const only = (m: "member" | Operation) => (m === "member" ? null : whoMay(m, "a lead of the team"));
  if (typeof may === "string") {
    const who = only(may);
    return who ? ` Only ${who} may.` : "";
  }
  return Object.entries(may)
    .map(([when, m]) => [when, only(m)])
    .flatMap(([when, who]) => (!who ? [] : when === "otherwise" ? [` Otherwise, only ${who} may.`] : [` With ${when}, only ${who} may.`]))
    .join("");
}

/** The tool of an operation's definition: its endpoint's input schema, effect (the hints) and answer, and its service. */
export function toolOf(d: Definition): ToolDef | null {
  if ("none" in d.mcp) return null;
  const endpoint = d.endpoint;
  const schema = endpoint.input as z.ZodObject;
  return {
    name: d.mcp.name,
    title: d.mcp.title,
    description: d.mcp.description + mayText(d.may),
    input: described(schema, d.mcp.describe),
    schema,
    annotations: ANNOTATIONS[endpoint.effect],
    endpoint,
    // `signal` aborts when the client cancels the call or goes away, for tools that wait (team_ask).
    run: (s, actor, input, signal) => serviceOf(s, endpoint)(actor, input, signal),
  };
}

/** A tool that is not an operation of the catalog: an agent's way into one (send_message) or a fact of the hub. */
export function tool<S extends z.ZodObject>(def: {
  name: string;
  title: string;
  description: string;
  describe?: Partial<Record<keyof S["shape"], string>>;
  schema: S;
  run: Run<S>;
  kind: Effect;
}): ToolDef {
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    input: described(def.schema, def.describe),
    schema: def.schema,
    annotations: ANNOTATIONS[def.kind],
    endpoint: null,
    run: def.run as ToolDef["run"],
  };
}

/** Arguments that would name the caller: the caller is always the token's principal (docs/architecture.md#principals). */
const IDENTITY_FIELDS = ["publisher", "reader", "assigner", "from", "sender", "principal", "actor", "caller"];

export type ToolResult = { content: Array<{ type: "text"; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

function failure(code: string, message: string, details: Record<string, unknown> = {}): ToolResult {
  return { isError: true, content: [{ type: "text", text: `${code}: ${message}` }], structuredContent: { error: { code, message, details } } };
}

/** JSON text for models plus structuredContent for programs; lists are wrapped so it is always an object. */
function success(value: unknown): ToolResult {
  const plain = JSON.parse(JSON.stringify(value ?? null)) as unknown;
  const structured = plain !== null && typeof plain === "object" && !Array.isArray(plain) ? (plain as Record<string, unknown>) : { items: plain };
  return { content: [{ type: "text", text: JSON.stringify(plain, null, 2) }], structuredContent: structured };
}

export async function callTool(def: ToolDef, s: Services, actor: Principal, args: unknown, signal?: AbortSignal): Promise<ToolResult> {
  if (args !== undefined && (typeof args !== "object" || args === null || Array.isArray(args))) {
    return failure("invalid_input", "arguments: must be a JSON object");
  }
  if (deeperThan(args)) {
    return failure("invalid_input", `arguments: ${DEPTH_RULE.message}`, { issues: [{ field: "arguments", ...DEPTH_RULE }] });
  }
  const given = (args ?? {}) as Record<string, unknown>;
  const impersonation = IDENTITY_FIELDS.find((f) => f in given && !(f in def.input.shape));
  if (impersonation) {
    return failure(
      "invalid_input",
      `${impersonation}: is not an argument of ${def.name}; you act as '${actor.name}', the principal of your token, and no argument can change that`,
      { issues: [{ field: impersonation, rule: "identity_from_token", message: "the caller's identity comes from the bearer token" }] },
    );
  }
  const strict = def.input.safeParse(given, { reportInput: true });
  const parsed = strict.success ? def.schema.safeParse(given, { reportInput: true }) : strict;
  if (!parsed.success) {
    const issues = zodIssues(parsed.error);
    const text = issues.map((i) => `${i.field || "arguments"}: ${i.message}`).join("; ");
    return failure("invalid_input", text, { issues });
  }
  try {
    return success(await def.run(s, actor, parsed.data as never, signal));
  } catch (e) {
    if (DomainError.is(e)) return failure(e.code, e.message, e.details);
    console.error(`[teamhub] MCP tool ${def.name} failed:`, e);
    return failure("internal", "internal error; see the hub's log");
  }
}

// Tool definitions never change while the hub runs, and converting all of them takes ~20 ms of one
// thread: every client's tools/list (each session's CLI sends one at start) reuses the first conversion.
const inputSchemas = new WeakMap<ToolDef, Record<string, unknown>>();
const outputSchemas = new WeakMap<ToolDef, Record<string, unknown> | null>();

/**
 * JSON as it crosses the wire (`io: "input"`: a date is its ISO text), without the dialect line. `lean` drops what
 * says nothing beyond the type (a date's 400-character pattern beside its `date-time` format, an integer's bounds at
 * ±2^53): answers repeat them in every date and count, and made tools/list four times its size.
 */
function wireJsonSchema(schema: z.ZodType, lean = false): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", ...(lean ? { override: leaner, reused: "ref" as const } : {}) }) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return json;
}

function leaner({ jsonSchema: j }: { jsonSchema: Record<string, unknown> }): void {
  if (j.format === "date-time") delete j.pattern;
  if (j.type === "integer" && j.minimum === Number.MIN_SAFE_INTEGER && j.maximum === Number.MAX_SAFE_INTEGER) {
    delete j.minimum;
    delete j.maximum;
  }
}

/** The JSON Schema a client sees for a tool's arguments. */
export function inputJsonSchema(def: ToolDef): Record<string, unknown> {
  let schema = inputSchemas.get(def);
  if (!schema) inputSchemas.set(def, (schema = wireJsonSchema(def.input)));
  return schema;
}

/**
 * What a tool's structuredContent holds (docs/mcp.md#what-a-client-gets): its endpoint's answer as the HTTP API sends it (a list
 * wrapped as `{items}`, as `success` wraps it), or the `{error}` of a failed call, which clients that check answers
 * against the schema (the SDK's client does, failures included) must accept too. Null for a tool that is not an
 * operation of the catalog.
 */
export function outputJsonSchema(def: ToolDef): Record<string, unknown> | null {
  let schema = outputSchemas.get(def);
  if (schema === undefined) {
    schema = def.endpoint ? answerOrError(def.endpoint.output) : null;
    outputSchemas.set(def, schema);
  }
  return schema;
}

function answerOrError(output: z.ZodType): Record<string, unknown> {
  const { $defs, ...answer } = wireJsonSchema(output, true);
  // References inside the answer point at the root's $defs (#/$defs/…), so they move up with it.
  return { type: "object", anyOf: [...asStructured(answer), wireJsonSchema(ErrorBody, true)], ...($defs ? { $defs } : {}) };
}

/** The shapes `success` gives a value of this schema: an object as it is, anything else (a list, null) as `{items}`. */
function asStructured(schema: Record<string, unknown>): Record<string, unknown>[] {
  const branches = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (branches && Object.keys(schema).length === 1) return branches.flatMap(asStructured);
  return [schema.type === "object" ? schema : { type: "object", properties: { items: schema }, required: ["items"] }];
}
