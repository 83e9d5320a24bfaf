/**
 * Refusals the Node server gives before (or instead of) Next.js, in the same `{error: {code,
 * message, details}}` shape as every /api error: Host/Origin, body size, header size, and the
 * wrong method on an /api route (Next answers that one itself, with an empty body).
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

/**
 * Gives Next's bodiless 405 on an /api route the JSON shape. Next streams its responses, so the
 * status is caught where node writes the head (also implicitly, from write or flushHeaders), and
 * Next's own (empty) body is replaced.
 */
export function jsonMethodNotAllowed(req: http.IncomingMessage, res: http.ServerResponse) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => http.ServerResponse;
  const route = new URL(req.url ?? "/", "http://hub").pathname;
  const text = body("method_not_allowed", `${req.method} is not supported on ${route}`, { field: "method", rule: "allowed_method" });
  let replacing = false;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    if (status !== 405) return writeHead(status, ...rest);
    replacing = true;
    res.removeHeader("transfer-encoding");
    return writeHead(405, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  }) as typeof res.writeHead;
  res.write = ((...args: unknown[]) => {
    if (!replacing && res.statusCode !== 405) return write(...args);
    if (!res.headersSent) res.writeHead(405);
    return true;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (!replacing && res.statusCode !== 405) return end(...args);
    if (!res.headersSent) res.writeHead(405);
    return end(text);
  }) as typeof res.end;
}

/** Requests node's parser rejects: 431 for oversized headers, 400 for the rest, both as JSON. */
export function onClientError(err: Error & { code?: string }, socket: Duplex) {
  if (err.code === "ECONNRESET" || !socket.writable) return socket.destroy();
  if (err.code === "HPE_HEADER_OVERFLOW") {
    return refuseRaw(socket, 431, "too_large", "the request headers are too large", { field: "headers", rule: "max_size" });
  }
  refuseRaw(socket, 400, "invalid_input", `the request could not be parsed: ${err.code ?? err.message}`, { field: "request", rule: "http" });
}
