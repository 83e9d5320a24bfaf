/**
 * Raw clients for the web-side attack tests: a /ws socket with any headers and token, and MCP
 * JSON-RPC POSTs with any headers (node:http, so Host is ours to choose).
 */
import { vi } from "vitest";
import WebSocket from "ws";
import { ServerMessage } from "../../lib/ws.ts";
import { api, bearer } from "./hub-process.ts";

type Msg = ReturnType<typeof ServerMessage.parse>;

export type Socket = {
  socket: WebSocket;
  inbox: Msg[];
  /** Resolves on open, or with the HTTP status the upgrade was refused with. */
  opened: Promise<{ status: number; body: string }>;
  closed: Promise<{ code: number; reason: string }>;
  next(type: Msg["type"], count?: number): Promise<Msg[]>;
  send(msg: unknown): void;
};

export function openSocket(hub: { url: string }, options: { token?: string; headers?: Record<string, string> } = {}): Socket {
  const query = options.token ? `?token=${encodeURIComponent(options.token)}` : "";
  const socket = new WebSocket(`${hub.url.replace("http", "ws")}/ws${query}`, { headers: options.headers });
  const inbox: Msg[] = [];
  socket.on("message", (d) => inbox.push(ServerMessage.parse(JSON.parse(String(d)))));
  const opened = new Promise<{ status: number; body: string }>((resolve, reject) => {
    socket.once("open", () => resolve({ status: 101, body: "" }));
    socket.once("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d) => (body += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    socket.once("error", (e) => (socket.readyState === WebSocket.CLOSED ? resolve({ status: 0, body: e.message }) : reject(e)));
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => socket.once("close", (code, reason) => r({ code, reason: String(reason) })));
  const next = async (type: Msg["type"], count = 1) => {
    await vi.waitFor(
      () => {
        if (inbox.filter((m) => m.type === type).length < count) throw new Error(`no ${count}× ${type}; got ${JSON.stringify(inbox.map((m) => m.type))}`);
      },
      { timeout: 10_000, interval: 20 },
    );
    return inbox.filter((m) => m.type === type);
  };
  return { socket, inbox, opened, closed, next, send: (msg) => socket.send(typeof msg === "string" ? msg : JSON.stringify(msg)) };
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "attacker", version: "1" } },
};

/** One JSON-RPC POST to /mcp; an SSE answer is reduced to its first message. */
export async function mcpPost(hub: { url: string }, body: unknown, headers: Record<string, string> = {}) {
  const r = await api(hub, "POST", "/mcp", body, { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18", ...headers });
  const rpc = typeof r.body === "string" && r.body.includes("data: ") ? JSON.parse(r.body.slice(r.body.indexOf("data: ") + 6).split("\n")[0]) : r.body;
  return { status: r.status, rpc, session: r.headers["mcp-session-id"] as string | undefined };
}

/** An initialized MCP session id for `token` (the SDK wants `notifications/initialized` before other calls). */
export async function mcpSession(hub: { url: string }, token?: string): Promise<string> {
  const auth = bearer(token);
  const init = await mcpPost(hub, INITIALIZE, auth);
  if (init.status !== 200 || !init.session) throw new Error(`initialize failed: ${init.status} ${JSON.stringify(init.rpc)}`);
  await mcpPost(hub, { jsonrpc: "2.0", method: "notifications/initialized" }, { ...auth, "mcp-session-id": init.session });
  return init.session;
}
