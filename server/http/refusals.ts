/**
 * Refusals the Node server gives before (or instead of) Next.js, in the same `{error: {code,
 * message, details}}` shape as every /api error: Host/Origin, body size, header size, and the
 * wrong method on an /api route (Next answers that one itself, with an empty body).
 */
import type http from "node:http";
import type { Duplex } from "node:stream";

const body = (code: string, message: string, details: Record<string, unknown>) => JSON.stringify({ error: { code, message, details } });

export function refuse(res: http.ServerResponse, status: number, code: string, message: string, details: Record<string, unknown>) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body(code, message, details));
}

/** For a socket that never became a request (an upgrade, or a request node could not parse). */
export function refuseRaw(socket: Duplex, status: number, reason: string, code: string, message: string, details: Record<string, unknown>) {
  const text = body(code, message, details);
  if (!socket.writable) return socket.destroy();
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

/** Gives Next's bodiless 405 on an /api route the JSON shape, naming the methods the route has. */
export function jsonMethodNotAllowed(req: http.IncomingMessage, res: http.ServerResponse) {
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  res.end = ((...args: unknown[]) => {
    if (res.statusCode !== 405 || res.headersSent) return end(...args);
    const allow = res.getHeader("allow");
    const text = body("method_not_allowed", `${req.method} is not supported on ${new URL(req.url ?? "/", "http://hub").pathname}${allow ? `; use ${allow}` : ""}`, {
      field: "method",
      rule: "allowed_method",
      ...(allow ? { allow: String(allow).split(/,\s*/) } : {}),
    });
    res.setHeader("content-type", "application/json");
    res.setHeader("content-length", Buffer.byteLength(text));
    return end(text);
  }) as typeof res.end;
}

/** Requests node's parser rejects: 431 for oversized headers, 400 for the rest, both as JSON. */
export function onClientError(err: Error & { code?: string }, socket: Duplex) {
  if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
  if (err.code === "HPE_HEADER_OVERFLOW") {
    return refuseRaw(socket, 431, "Request Header Fields Too Large", "too_large", "the request headers are too large", { field: "headers", rule: "max_size" });
  }
  refuseRaw(socket, 400, "Bad Request", "invalid_input", `the request could not be parsed: ${err.code ?? err.message}`, { field: "request", rule: "http" });
}
