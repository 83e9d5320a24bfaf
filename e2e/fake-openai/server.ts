/**
 * A loopback fake of the OpenAI Responses API (POST /v1/responses, streamed as SSE) that the real
 * codex-acp talks to through a custom model provider in its config.toml. Each reply is decided by
 * `respond` from the request, so a retry gets the same answer.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { ResponsesRequest } from "./request.ts";

export type Usage = { input_tokens: number; output_tokens: number };

export type Reply =
  | { text: string; usage?: Usage }
  | { call: { name: string; namespace?: string; arguments: string }; usage?: Usage }
  /** The API refuses the request with this status and message, as OpenAI's error body says it. */
  | { error: { status: number; message: string } };

export type FakeOpenAi = {
  /** The provider's base_url: codex appends /responses. */
  url: string;
  requests: ResponsesRequest[];
  /** The bearer tokens the requests carried. */
  tokens: string[];
  close(): Promise<void>;
};

const DEFAULT_USAGE: Usage = { input_tokens: 10, output_tokens: 5 };

function sse(res: http.ServerResponse, event: Record<string, unknown> & { type: string }): void {
  res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

function stream(res: http.ServerResponse, id: string, reply: Exclude<Reply, { error: unknown }>): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  sse(res, { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } });
  const itemId = `${id}_item`;
  if ("call" in reply) {
    const item = { type: "function_call", id: itemId, call_id: `call_${id}`, status: "completed", ...reply.call };
    sse(res, { type: "response.output_item.added", output_index: 0, item: { ...item, arguments: "", status: "in_progress" } });
    sse(res, { type: "response.output_item.done", output_index: 0, item });
  } else {
    const message = { type: "message", id: itemId, role: "assistant", status: "completed" };
    sse(res, { type: "response.output_item.added", output_index: 0, item: { ...message, status: "in_progress", content: [] } });
    sse(res, { type: "response.output_text.delta", item_id: itemId, output_index: 0, content_index: 0, delta: reply.text });
    sse(res, {
      type: "response.output_item.done",
      output_index: 0,
      item: { ...message, content: [{ type: "output_text", text: reply.text, annotations: [] }] },
    });
  }
  const usage = reply.usage ?? DEFAULT_USAGE;
  sse(res, {
    type: "response.completed",
    response: {
      id,
      object: "response",
      status: "completed",
      usage: {
        input_tokens: usage.input_tokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.output_tokens,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: usage.input_tokens + usage.output_tokens,
      },
    },
  });
  res.end();
}

export async function startFakeOpenAi(respond: (req: ResponsesRequest) => Reply | Promise<Reply>): Promise<FakeOpenAi> {
  const requests: ResponsesRequest[] = [];
  const tokens: string[] = [];
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        if (req.method !== "POST" || !req.url?.endsWith("/responses")) {
          res.writeHead(404).end();
          return;
        }
        const parsed = ResponsesRequest.safeParse(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        if (!parsed.success) {
          res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: parsed.error.message } }));
          return;
        }
        requests.push(parsed.data);
        tokens.push((req.headers.authorization ?? "").replace(/^Bearer /, ""));
        const reply = await respond(parsed.data);
        if ("error" in reply) {
          const body = { error: { message: reply.error.message, type: "invalid_request_error", code: null } };
          res.writeHead(reply.error.status, { "content-type": "application/json" }).end(JSON.stringify(body));
          return;
        }
        stream(res, `resp_${++count}`, reply);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    tokens,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
