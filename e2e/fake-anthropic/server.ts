/**
 * A loopback fake of the Anthropic Messages API that the real `claude` CLI talks to
 * (ANTHROPIC_BASE_URL). Each reply is decided by the test's `respond` from the request content,
 * so retries and parallel side calls get sensible answers. Streams SSE or answers JSON, as the
 * CLI asks; can also fail, be slow, or hang. With `keys`, it also checks credentials as the real API
 * does: a request whose x-api-key or bearer token is not one of them gets 401 authentication_error.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { MessagesRequest } from "./request.ts";

export type Reply =
  /**
   * `dripMs`: the text streams a word at a time, this far apart (as a slow model's would). `holdAfter`: after
   * each of these word counts the stream waits for the test's `release()`, so a test decides where the model is.
   */
  | { text: string; delayMs?: number; dripMs?: number; holdAfter?: number[]; usage?: Usage; headers?: Headers }
  | { tools: Array<{ name: string; input: unknown }>; text?: string; delayMs?: number; usage?: Usage; headers?: Headers }
  | { error: number; message?: string; retry?: boolean; headers?: Headers; type?: string }
  | { hang: true };

/** Response headers: the rate-limit ones (`anthropic-ratelimit-unified-*`, `retry-after`) as the real API sends them. */
type Headers = Record<string, string>;

type Usage = { input_tokens: number; output_tokens: number };

export type FakeApi = {
  url: string;
  requests: MessagesRequest[];
  /** Lets a held stream go on to its next hold; a release before the stream gets there is kept for it. */
  release(): void;
  close(): Promise<void>;
};

/** Releases counted against holds, in either order; a stream whose client went away stops waiting (and takes none). */
function gate() {
  let kept = 0;
  const waiting = new Set<() => void>();
  return {
    async pass(res: http.ServerResponse): Promise<void> {
      if (kept > 0) {
        kept--;
        return;
      }
      await new Promise<void>((resolve) => {
        const go = () => {
          waiting.delete(go);
          res.off("close", go);
          resolve();
        };
        waiting.add(go);
        res.once("close", go);
      });
    },
    release() {
      const [next] = waiting;
      if (next) next();
      else kept++;
    },
  };
}
export type FakeApiOptions = { keys?: string[] };

let ids = 0;
const nextId = (prefix: string) => `${prefix}_fake_${(++ids).toString(16).padStart(8, "0")}`;

function content(reply: Extract<Reply, { text?: string }>) {
  const out: Array<Record<string, unknown>> = [];
  if (reply.text) out.push({ type: "text", text: reply.text });
  if ("tools" in reply) for (const t of reply.tools) out.push({ type: "tool_use", id: nextId("toolu"), name: t.name, input: t.input });
  return out;
}

type Pacing = { dripMs: number; holdAfter: number[]; hold: (res: http.ServerResponse) => Promise<void> };

async function sse(
  res: http.ServerResponse,
  model: string,
  blocks: Array<Record<string, unknown>>,
  stop: string,
  usage: Usage,
  pacing: Pacing,
  headers: Headers = {},
) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", ...headers });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  send("message_start", {
    message: {
      id: nextId("msg"),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
    },
  });
  for (const [index, b] of blocks.entries()) {
    if (b.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      const { dripMs, holdAfter, hold } = pacing;
      const pieces = dripMs || holdAfter.length ? String(b.text).split(/(?<= )/) : [String(b.text)];
      for (const [i, text] of pieces.entries()) {
        if (holdAfter.includes(i)) await hold(res);
        if (i && dripMs) await new Promise((r) => setTimeout(r, dripMs));
        if (res.destroyed) return;
        send("content_block_delta", { index, delta: { type: "text_delta", text } });
      }
    } else {
      send("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) } });
    }
    send("content_block_stop", { index });
  }
  send("message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
  send("message_stop", {});
  res.end();
}

/** The credential a request carries: its x-api-key (ANTHROPIC_API_KEY) or bearer token (ANTHROPIC_AUTH_TOKEN, a login). */
function credentialOf(req: http.IncomingMessage): string | undefined {
  const key = req.headers["x-api-key"];
  if (typeof key === "string") return key;
  return /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
}

export async function startFakeApi(respond: (req: MessagesRequest) => Reply | Promise<Reply>, options: FakeApiOptions = {}): Promise<FakeApi> {
  const requests: MessagesRequest[] = [];
  const hanging = new Set<http.ServerResponse>();
  const holds = gate();
  const serve = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    if (req.method !== "POST") return void res.writeHead(404).end();
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = JSON.parse(text || "{}") as MessagesRequest;
    // After the body is read: the real API answers a bad key only once the request is in.
    const credential = credentialOf(req);
    if (options.keys && !(credential && options.keys.includes(credential))) {
      res.writeHead(401, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
    }
    if (path === "/v1/messages/count_tokens") return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ input_tokens: 100 }));
    if (path !== "/v1/messages") return void res.writeHead(404).end();
    requests.push(body);
    const reply = await respond(body);
    if ("hang" in reply) return void hanging.add(res);
    if ("error" in reply) {
      res.writeHead(reply.error, { "content-type": "application/json", ...(reply.retry === false ? { "x-should-retry": "false" } : {}), ...reply.headers });
      return void res.end(JSON.stringify({ type: "error", error: { type: reply.type ?? "api_error", message: reply.message ?? "fake error" } }));
    }
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    const blocks = content(reply);
    const stop = "tools" in reply && reply.tools.length ? "tool_use" : "end_turn";
    const usage = reply.usage ?? { input_tokens: 1000, output_tokens: 20 };
    const pacing = { dripMs: ("dripMs" in reply && reply.dripMs) || 0, holdAfter: ("holdAfter" in reply && reply.holdAfter) || [], hold: holds.pass };
    if (body.stream) return sse(res, body.model, blocks, stop, usage, pacing, reply.headers);
    res.writeHead(200, { "content-type": "application/json", ...reply.headers });
    res.end(
      JSON.stringify({
        id: nextId("msg"),
        type: "message",
        role: "assistant",
        model: body.model,
        content: blocks,
        stop_reason: stop,
        stop_sequence: null,
        usage,
      }),
    );
  };
  // A CLI killed mid-request aborts the body it was sending: that ends this exchange, not the test run.
  const server = http.createServer((req, res) => void serve(req, res).catch(() => res.destroy()));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    release: holds.release,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
