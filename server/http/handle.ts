/**
 * The one wrapper every /api route uses (./routes.ts): who is calling → parse the input with zod → one service call →
 * JSON. Domain errors map to `{error: {code, message, details}}` here and nowhere else.
 */
import type http from "node:http";
import { z } from "zod";
import { DomainError, invalidField } from "../errors.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { MAX_BODY_BYTES, readCapped } from "./body.ts";
import { DEPTH_RULE, deeperThan } from "./json-depth.ts";
import { shapeOf, typedQuery } from "./query.ts";
import type { Services } from "../services.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";

export { MAX_BODY_BYTES } from "./body.ts";

/** What a route is given of its request: the path's `:name` segments, decoded, and the query. */
export type ApiRequest = { req: http.IncomingMessage; params: Record<string, string>; query: URLSearchParams; signal: AbortSignal };
/** A route's answer: its status and the JSON body. */
export type Answer = { status: number; body: unknown };
/** `call`: what the route does with a parsed input; `answer`: the whole request, from its bearer token to its status. */
export type Route = {
  endpoint: Endpoint;
  call: (s: Services, actor: Principal, input: never, signal: AbortSignal) => Promise<unknown>;
  answer(s: Services, r: ApiRequest): Promise<Answer>;
};

export function route<I extends z.ZodType, O extends z.ZodType>(
  endpoint: Endpoint<I, O>,
  /** `signal` aborts when the client goes away, for operations that wait (an ask). */
  op: (s: Services, actor: Principal, input: z.output<I>, signal: AbortSignal) => Promise<z.output<O>>,
): Route {
  const schema = endpoint.input;
  return {
    endpoint,
    call: op as Route["call"],
    async answer(s, { req, params, query, signal }) {
      try {
        const actor = await principalOf(s, req);
        const body = await bodyOf(req);
        refuseUnknownFields(schema, body);
        const raw = { ...typedQuery(schema, query), ...body, ...typedQuery(schema, new URLSearchParams(params)) };
        const input = parseOrThrow(schema, raw);
        return { status: endpoint.status, body: await op(s, actor, input, signal) };
      } catch (e) {
        return errorAnswer(e);
      }
    },
  };
}

async function principalOf(s: Services, req: http.IncomingMessage): Promise<Principal> {
  const header = req.headers.authorization;
  if (!header) {
    if (s.info.requireToken) throw new DomainError("unauthorized", "a bearer token is required: send 'Authorization: Bearer <token>'");
    return OPERATOR;
  }
  const m = /^Bearer\s+(\S+)$/i.exec(header);
  if (!m) throw new DomainError("unauthorized", "the Authorization header must be 'Bearer <token>'");
  return s.auth.authenticate(m[1]);
}

/**
 * Body fields the route does not take are refused, as MCP refuses unknown arguments: the same zod
 * check (a strict object over the route's fields) gives the same issue, rule `unrecognized_keys`.
 */
const strictShapes = new WeakMap<z.ZodType, z.ZodType>();
function refuseUnknownFields(schema: z.ZodType, body: Record<string, unknown>) {
  const shape = shapeOf(schema);
  if (!shape) return;
  let strict = strictShapes.get(schema);
  if (!strict) strictShapes.set(schema, (strict = z.strictObject(Object.fromEntries(Object.keys(shape).map((k) => [k, z.unknown().optional()])))));
  parseOrThrow(strict, body);
}

/** The body, read up to MAX_BODY_BYTES whatever Content-Length says (a chunked body has none). */
async function readBody(req: http.IncomingMessage): Promise<string> {
  const text = await readCapped(req);
  if (text === null) throw new DomainError("too_large", `the request body must be at most ${MAX_BODY_BYTES} bytes`, { field: "body", rule: "max_size" });
  return text;
}

async function bodyOf(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  if (req.method === "GET" || req.method === "HEAD") return {};
  const text = await readBody(req);
  if (text.trim() === "") return {};
  // Requiring JSON also keeps plain cross-site form posts out (they cannot send this type).
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    throw invalidField("body", "content_type", "must be sent with Content-Type: application/json", req.headers["content-type"] ?? "(none)");
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw invalidField("body", "json", `is not valid JSON: ${(e as Error).message}`);
  }
  if (deeperThan(body)) throw invalidField("body", DEPTH_RULE.rule, DEPTH_RULE.message);
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw invalidField("body", "object", "must be a JSON object");
  return body as Record<string, unknown>;
}

function errorAnswer(e: unknown): Answer {
  if (DomainError.is(e)) return { status: e.status, body: { error: { code: e.code, message: e.message, details: e.details } } };
  console.error("[teamhub] unexpected error in /api:", e);
  return { status: 500, body: { error: { code: "internal", message: "internal error; see the hub's log", details: {} } } };
}
