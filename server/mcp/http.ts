/**
 * Stateful Streamable HTTP at /mcp, dispatched by server.ts before Next (a route handler would
 * hold SSE headers back and lose the session map on recompiles; see README). One McpServer per
 * session. Every request is authenticated on its own: its bearer token's principal is who acts,
 * and a session stays with the principal that opened it.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { EventBus } from "../events/bus.ts";
import { DomainError } from "../errors.ts";
import { OPERATOR, type Principal } from "../domain/principal.ts";
import type { Services } from "../services.ts";
import { buildMcpServer, type BuiltServer } from "./build-server.ts";
import { notifyResourceChanges } from "./notify.ts";
import type { ToolDef } from "./tool.ts";

// Enough for every agent of a large team; idle sessions are closed so the map cannot grow for ever.
const MAX_SESSIONS = 1000;
const IDLE_MS = 60 * 60 * 1000;

type Session = { transport: StreamableHTTPServerTransport; server: BuiltServer; principal: string; lastUsed: number };

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id: null }));
}

export function createMcpHttp(svc: Services, bus: EventBus, options: { requireToken: boolean; extraTools?: ToolDef[] }) {
  const sessions = new Map<string, Session>();
  const unsubscribe = bus.subscribe((events) => {
    for (const s of sessions.values()) notifyResourceChanges(s.server, events);
  });
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [id, s] of sessions) if (now - s.lastUsed > IDLE_MS) void s.transport.close().finally(() => sessions.delete(id));
  }, 60_000);
  sweep.unref();

  async function principalOf(req: IncomingMessage): Promise<Principal | null> {
    const header = req.headers.authorization;
    if (!header) return options.requireToken ? null : OPERATOR;
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) return null;
    try {
      return await svc.auth.authenticate(m[1]);
    } catch (e) {
      if (DomainError.is(e)) return null;
      throw e;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const principal = await principalOf(req);
    if (!principal) return jsonRpcError(res, 401, -32001, "Unauthorized: send 'Authorization: Bearer <token>' with a Team Hub token (teamhub token create <member>)");
    (req as IncomingMessage & { auth?: unknown }).auth = { token: "", clientId: principal.name, scopes: [], extra: { principal } };
    const id = req.headers["mcp-session-id"];
    if (typeof id === "string") {
      const s = sessions.get(id);
      if (!s) return jsonRpcError(res, 404, -32001, "Session not found: it ended or the hub restarted; initialize a new one");
      if (s.principal !== principal.name) return jsonRpcError(res, 403, -32001, `This session belongs to '${s.principal}', not '${principal.name}'`);
      s.lastUsed = Date.now();
      return s.transport.handleRequest(req, res);
    }
    if (req.method !== "POST") return jsonRpcError(res, 400, -32000, "Bad Request: no session; start one with an initialize POST");
    if (sessions.size >= MAX_SESSIONS) return jsonRpcError(res, 503, -32000, "Too many MCP sessions; retry later");
    const server = buildMcpServer(svc, (extra) => (extra.authInfo?.extra?.principal as Principal | undefined) ?? principal, { extraTools: options.extraTools });
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, { transport, server, principal: principal.name, lastUsed: Date.now() }),
      onsessionclosed: (sid) => void sessions.delete(sid),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.mcp.connect(transport);
    await transport.handleRequest(req, res);
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
