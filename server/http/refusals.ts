/**
 * Refusals the Node server gives before a route or page sees the request, in the same `{error: {code, message,
 * details}}` shape as every /api error: Host/Origin, body size, header size, and an /api path or method that does not
 * exist.
 */
import http from "node:http";
import type { Duplex } from "node:stream";

const body = (code: string, message: string, details: Record<string, unknown>) => JSON.stringify({ error: { code, message, details } });

export function refuse(res: http.ServerResponse, status: number, code: string, message: string, details: Record<string, unknown>) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(body(code, message, details));
}

/** For a socket that never became a request (an upgrade, or a request node could not parse). */
export function refuseRaw(socket: Duplex, status: number, code: string, message: string, details: Record<string, unknown>) {
  const text = body(code, message, details);
  if (!socket.writable) return socket.destroy();
  const head = [
    `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}`,
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(text)}`,
    "connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${text}`);
}

/** Requests node's parser rejects: 431 for oversized headers, 400 for the rest, both as JSON. */
export function onClientError(err: Error & { code?: string }, socket: Duplex) {
  if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
  if (err.code === "HPE_HEADER_OVERFLOW") {
    return refuseRaw(socket, 431, "too_large", "the request headers are too large", { field: "headers", rule: "max_size" });
  }
  refuseRaw(socket, 400, "invalid_input", `the request could not be parsed: ${err.code ?? err.message}`, { field: "request", rule: "http" });
}
