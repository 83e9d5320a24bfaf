/**
 * Stateful Streamable HTTP at /mcp, dispatched by server.ts before Next (a route handler would
 * hold SSE headers back and lose the session map on recompiles; docs/mcp.md#the-endpoint). One McpServer per
 * session. Every request is authenticated on its own: its bearer token's principal is who acts,
 * and a session stays with the principal that opened it.
 *
 * Bounds (docs/security.md#web-side): each principal holds at most PER_PRINCIPAL sessions — one more takes the place of
 * its own least recently used idle one, never an active one (./session-room.ts) — so a client that keeps initializing
 * only churns or is refused its own; when the hub-wide cap is reached, the principal holding the most gives an idle one
 * up. Bodies are read here, size- and depth-checked, then handed to the SDK parsed. A revoked token's sessions close at once.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js";
import type { EventBus } from "../events/bus.ts";
import { DomainError } from "../errors.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import { tokenHash } from "../domain/auth/tokens.service.ts";
import type { Services } from "../services.ts";
import { MAX_BODY_BYTES, readCapped } from "../http/body.ts";
import { DEPTH_RULE, deeperThan } from "../http/json-depth.ts";
import { revokedTokenHashes } from "../http/revoked.ts";
import { TokenBucket } from "../http/token-bucket.ts";
import { buildMcpServer, type BuiltServer } from "./build-server.ts";
import { notifyResourceChanges } from "./notify.ts";
import { SessionRoom } from "./session-room.ts";
import type { ToolDef } from "./tool.ts";

// Enough for every agent of a large team; idle sessions are closed so the map cannot grow for ever.
const MAX_SESSIONS = 1000;
// Generous for one agent or person (each client process holds one), far below the hub-wide cap.
export const PER_PRINCIPAL = 32;
const IDLE_MS = 60 * 60 * 1000;
/** A session is active while a request of it is in flight and this long after its last one: never evicted then. */
export const ACTIVE_MS = 30_000;
// New sessions per principal: a burst of INIT_BURST, then INIT_PER_SECOND. A flood of initializes is refused
// before any server is built for it, so it cannot take the hub's event loop from everyone else.
const INIT_BURST = 50;
const INIT_PER_SECOND = 10;

type Session = {
  transport: StreamableHTTPServerTransport;
  server: BuiltServer;
  principal: string;
  owner: string;
  token: string | null;
  lastUsed: number;
  /** POSTs and DELETEs under way (a GET is the notification stream a client keeps open: it does not make a session busy). */
  inFlight: number;
};
type Caller = { principal: Principal; token: string | null };

function jsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  options: { id?: unknown; data?: unknown; headers?: Record<string, string> } = {},
) {
  res.writeHead(status, { "content-type": "application/json", ...options.headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message, ...(options.data ? { data: options.data } : {}) }, id: options.id ?? null }));
}

/** A supervised session acting as a member is its own owner: the member's other clients never evict it. */
const ownerOf = (p: Principal) => (p.sessionId ? `${p.name}#${p.sessionId}` : p.name);

export function createMcpHttp(svc: Services, bus: EventBus, options: { requireToken: boolean; extraTools?: ToolDef[] }) {
  const sessions = new Map<string, Session>();
  // One small bucket per owner that initialized lately. Owners include each supervised session
  // (`name#sessionId`), so the set is not bounded by the principals: the sweep drops full buckets.
  const initBuckets = new Map<string, TokenBucket>();

  const drop = (id: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    void s.transport.close().catch(() => {});
  };

  const unsubscribe = bus.subscribe((events) => {
    const revoked = revokedTokenHashes(events);
    if (revoked.size) for (const [id, s] of sessions) if (s.token && revoked.has(s.token)) drop(id);
    for (const s of sessions.values()) notifyResourceChanges(s.server, events);
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.lastUsed > IDLE_MS) drop(id);
    // A full bucket is no different from the new one the next initialize would make.
    for (const [owner, bucket] of initBuckets) if (bucket.full(now)) initBuckets.delete(owner);
  }, 60_000);
  sweep.unref();

  const room = new SessionRoom(sessions, { perOwner: PER_PRINCIPAL, total: MAX_SESSIONS, activeMs: ACTIVE_MS }, drop);

  async function callerOf(req: IncomingMessage): Promise<Caller | null> {
    const header = req.headers.authorization;
    if (!header) return options.requireToken ? null : { principal: OPERATOR, token: null };
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) return null;
    try {
      return { principal: await svc.auth.authenticate(m[1]), token: tokenHash(m[1]) };
    } catch (e) {
      if (DomainError.is(e)) return null;
      throw e;
    }
  }

  /** The parsed JSON-RPC body, or null after answering a body that is too large, not JSON or too deep. */
  async function parsedBody(req: IncomingMessage, res: ServerResponse): Promise<{ value: unknown } | null> {
    const text = await readCapped(req);
    if (text === null) {
      const data = { field: "body", rule: "max_size" };
      jsonRpcError(res, 413, ErrorCode.InvalidRequest, `Request body too large: at most ${MAX_BODY_BYTES} bytes`, { data });
      return null;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      jsonRpcError(res, 400, ErrorCode.ParseError, `Parse error: ${(e as Error).message}`);
      return null;
    }
    if (deeperThan(value)) {
      const id = value !== null && typeof value === "object" && !Array.isArray(value) ? (value as { id?: unknown }).id : undefined;
      const data = { field: "body", rule: DEPTH_RULE.rule };
      jsonRpcError(res, 400, ErrorCode.InvalidParams, `Invalid params: body: ${DEPTH_RULE.message} (${DEPTH_RULE.rule})`, { id, data });
      return null;
    }
    return { value };
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const caller = await callerOf(req);
    if (!caller) {
      return jsonRpcError(res, 401, -32001, "Unauthorized: send 'Authorization: Bearer <token>' with a Team Hub token (teamhub token create <member>)");
    }
    const { principal } = caller;
    (req as IncomingMessage & { auth?: unknown }).auth = { token: "", clientId: principal.name, scopes: [], extra: { principal } };
    const body = req.method === "POST" ? await parsedBody(req, res) : { value: undefined };
    if (!body) return;
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const s = sessions.get(id);
      if (!s) return jsonRpcError(res, 404, -32001, "Session not found: it ended, was evicted, its token was revoked, or the hub restarted");
      if (s.principal !== principal.name) return jsonRpcError(res, 403, -32001, `This session belongs to '${s.principal}', not '${principal.name}'`);
      s.lastUsed = Date.now();
      if (req.method !== "GET") {
        s.inFlight++;
        res.once("close", () => {
          s.inFlight--;
          s.lastUsed = Date.now();
        });
      }
      return s.transport.handleRequest(req, res, body.value);
    }
    if (req.method !== "POST") return jsonRpcError(res, 400, -32000, "Bad Request: no session; start one with an initialize POST");
    const owner = ownerOf(principal);
    let bucket = initBuckets.get(owner);
    if (!bucket) initBuckets.set(owner, (bucket = new TokenBucket(INIT_BURST, INIT_PER_SECOND)));
    if (!bucket.take()) {
      const message = `Too many new MCP sessions for '${owner}': at most ${INIT_BURST} at once, then ${INIT_PER_SECOND} a second; reuse a session`;
      return jsonRpcError(res, 429, -32000, message, { data: { field: "initialize", rule: "rate_limited" }, headers: { "retry-after": "1" } });
    }
    if (!room.reserve(owner, Date.now())) {
      const message = `'${owner}' already has ${PER_PRINCIPAL} MCP sessions in use (a request within ${ACTIVE_MS / 1000} s); close one, reuse one, or retry`;
      return jsonRpcError(res, 429, -32000, message, { data: { field: "initialize", rule: "sessions_in_use" }, headers: { "retry-after": "5" } });
    }
    try {
      const server = buildMcpServer(svc, (extra) => (extra.authInfo?.extra?.principal as Principal | undefined) ?? principal, {
        extraTools: options.extraTools,
      });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sid) => {
          sessions.set(sid, { transport, server, principal: principal.name, owner, token: caller.token, lastUsed: Date.now(), inFlight: 0 });
        },
        onsessionclosed: (sid) => void sessions.delete(sid),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.mcp.connect(transport);
      await transport.handleRequest(req, res, body.value);
    } finally {
      room.release(owner);
    }
  }

  return {
    handle,
    sessionCount: () => sessions.size,
    async close() {
      unsubscribe();
      clearInterval(sweep);
      await Promise.all([...sessions.values()].map((s) => s.transport.close().catch(() => {})));
      sessions.clear();
    },
  };
}
