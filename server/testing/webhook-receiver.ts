/**
 * A real HTTP receiver on 127.0.0.1 for webhook tests: it records every request (raw body and headers) and answers
 * as the test says: a status, or never (a receiver that hangs). Waiting for a request is waiting for it to arrive,
 * never a fixed sleep.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";

export type Received = { path: string; headers: http.IncomingHttpHeaders; body: string; at: number };
/** A status to answer with (and headers), or "hang": keep the request open until the receiver closes. */
export type Answer = number | "hang" | { status: number; headers: Record<string, string> };

export type Receiver = {
  url: string;
  received: Received[];
  /** Resolves once `n` requests (to `path`, when given) have arrived. */
  waitFor(n: number, options?: { path?: string; timeout?: number }): Promise<Received[]>;
  close(): Promise<void>;
};

export async function startReceiver(answer: (r: Received, n: number) => Answer = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const r: Received = { path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(r);
      const a = answer(r, received.length);
      if (a === "hang") return;
      const { status, headers } = typeof a === "number" ? { status: a, headers: {} } : a;
      res.writeHead(status, headers).end(status < 300 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    waitFor: (n, { path, timeout = 20_000 } = {}) =>
      vi.waitFor(
        () => {
          const got = received.filter((r) => path === undefined || r.path === path);
          if (got.length < n) throw new Error(`${got.length} of ${n} requests${path ? ` to ${path}` : ""} arrived`);
          return got;
        },
        { timeout, interval: 10 },
      ),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
