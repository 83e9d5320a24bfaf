/**
 * The /api door: a request is matched to its route (./routes.ts) by path and method and answered in the hub's own
 * server. Next.js served these once, and its request handling cost 3–8 ms of every call (docs/performance.md#a-session-turn);
 * it serves the dashboard's pages only. A path matches the endpoint whose segments all fit, a literal segment before a
 * `:name` one (`/pipelines/validate` is not pipeline "validate"); on a path that exists, another method answers 405.
 */
import type http from "node:http";
import type { Services } from "../services.ts";
import type { Route } from "./handle.ts";
import { refuse } from "./refusals.ts";

type Pattern = { segments: string[]; routes: Map<string, Route> };

function compile(routes: Route[]): Pattern[] {
  const byPath = new Map<string, Pattern>();
  for (const r of routes) {
    const { path, method } = r.endpoint;
    let p = byPath.get(path);
    if (!p) byPath.set(path, (p = { segments: path.split("/").slice(1), routes: new Map() }));
    if (p.routes.has(method)) throw new Error(`two /api routes for ${method} ${path}`);
    p.routes.set(method, r);
  }
  // Literal segments first, position by position: the first pattern that fits is the most specific.
  const rank = (p: Pattern) => p.segments.map((s) => (s.startsWith(":") ? "1" : "0")).join("");
  return [...byPath.values()].sort((a, b) => rank(a).localeCompare(rank(b)));
}

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

function fit(p: Pattern, segments: string[]): Record<string, string> | null {
  if (p.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [i, s] of p.segments.entries()) {
    if (!s.startsWith(":")) {
      if (s !== segments[i]) return null;
      continue;
    }
    const value = segments[i] === "" ? null : decode(segments[i]);
    if (value === null) return null;
    params[s.slice(1)] = value;
  }
  return params;
}

/** Answers a request whose path is under /api/. */
export function apiRouter(routes: Route[], services: Services) {
  const patterns = compile(routes);
  return async (req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> => {
    const segments = url.pathname
      .slice("/api".length)
      .replace(/(.)\/$/, "$1")
      .split("/")
      .slice(1);
    let found: { pattern: Pattern; params: Record<string, string> } | null = null;
    for (const pattern of patterns) {
      const params = fit(pattern, segments);
      if (params) {
        found = { pattern, params };
        break;
      }
    }
    if (!found) return refuse(res, 404, "not_found", `there is no /api route at ${url.pathname}`, { field: "path", rule: "exists" });
    const method = (req.method ?? "GET").toUpperCase();
    const allowed = [...found.pattern.routes.keys()].join(", ");
    const r = found.pattern.routes.get(method === "HEAD" ? "GET" : method);
    if (method === "OPTIONS") {
      res.writeHead(204, { allow: `${allowed}, OPTIONS` });
      return void res.end();
    }
    if (!r) {
      res.setHeader("allow", allowed);
      return refuse(res, 405, "method_not_allowed", `${method} is not supported on ${url.pathname}`, { field: "method", rule: "allowed_method" });
    }
    // A waiting operation (an ask) ends when its caller goes away.
    const gone = new AbortController();
    res.once("close", () => res.writableFinished || gone.abort());
    const { status, body } = await r.answer(services, { req, params: found.params, query: url.searchParams, signal: gone.signal });
    const text = JSON.stringify(body) ?? "null";
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
    res.end(method === "HEAD" ? undefined : text);
  };
}
