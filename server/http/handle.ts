/**
 * The one wrapper every /api route handler uses: who is calling → parse the input with zod →
 * one service call → JSON. Domain errors map to `{error: {code, message, details}}` here and
 * nowhere else.
 */
import { z } from "zod";
import { DomainError, invalidField } from "../errors.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { services } from "../registry.ts";
import { MAX_BODY_BYTES, readCapped } from "./body.ts";
import { DEPTH_RULE, deeperThan } from "./json-depth.ts";
import { shapeOf, typedQuery } from "./query.ts";
import type { Services } from "../services.ts";
import type { Endpoint } from "../../lib/api/endpoint.ts";

export { MAX_BODY_BYTES } from "./body.ts";

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

export function handle<I extends z.ZodType, O extends z.ZodType>(
  endpoint: Endpoint<I, O>,
  /** `signal` aborts when the client goes away, for operations that wait (an ask). */
  op: (s: Services, actor: Principal, input: z.output<I>, signal: AbortSignal) => Promise<z.output<O>>,
) {
  const schema = endpoint.input;
  return async (req: Request, ctx: RouteContext): Promise<Response> => {
    try {
      const s = services();
      const actor = await principalOf(s, req);
      const body = await bodyOf(req);
      refuseUnknownFields(schema, body);
      const raw = { ...typedQuery(schema, new URL(req.url).searchParams), ...body, ...typedQuery(schema, pathParams((await ctx.params) ?? {})) };
      const input = parseOrThrow(schema, raw);
      return Response.json(await op(s, actor, input, req.signal), { status: endpoint.status });
    } catch (e) {
      return errorResponse(e);
    }
  };
}

/** Path segments are text too (an approval id is a number). */
const pathParams = (params: Record<string, string | string[] | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => typeof e[1] === "string"));

async function principalOf(s: Services, req: Request): Promise<Principal> {
  const header = req.headers.get("authorization");
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
async function readBody(req: Request): Promise<string> {
  if (!req.body) return "";
  const text = await readCapped(req.body as unknown as AsyncIterable<Uint8Array>);
  if (text === null) throw new DomainError("too_large", `the request body must be at most ${MAX_BODY_BYTES} bytes`, { field: "body", rule: "max_size" });
  return text;
}

async function bodyOf(req: Request): Promise<Record<string, unknown>> {
  if (req.method === "GET" || req.method === "HEAD") return {};
  const text = await readBody(req);
  if (text.trim() === "") return {};
  // Requiring JSON also keeps plain cross-site form posts out (they cannot send this type).
  if (!/^application\/json\b/i.test(req.headers.get("content-type") ?? "")) {
    throw invalidField("body", "content_type", "must be sent with Content-Type: application/json", req.headers.get("content-type") ?? "(none)");
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

export function errorResponse(e: unknown): Response {
  if (DomainError.is(e)) return Response.json({ error: { code: e.code, message: e.message, details: e.details } }, { status: e.status });
  console.error("[teamhub] unexpected error in /api:", e);
  return Response.json({ error: { code: "internal", message: "internal error; see the hub's log", details: {} } }, { status: 500 });
}
