/**
 * Web side (docs/security.md#web-side): bounds and consistent refusals: unknown body fields are refused on the HTTP API
 * as MCP refuses them; JSON nested deeper than the limit gets 400 on every door (never a 500 or a
 * stack overflow); MCP `arguments` that are not an object get -32602; 405, 413 and 431 answer in
 * the `{error: {code, message, details}}` shape. Each refusal leaves the database as it was.
 */
import http from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, expect } from "vitest";
import { WS_VERSION } from "../../lib/ws.ts";
import { expectDbUnchanged } from "../helpers/db-snapshot.ts";
import { api, startHub, type HubProcess } from "../helpers/hub-process.ts";
import { call, httpClient } from "../helpers/mcp-client.ts";
import { attack } from "./attack.ts";
import { mcpPost, mcpSession, openSocket } from "../helpers/web-doors.ts";

let hub: HubProcess;
let client: Client;
let session: string;
beforeAll(async () => {
  hub = await startHub();
  client = await httpClient(hub.url);
  session = await mcpSession(hub);
});
afterAll(async () => {
  await client?.close();
  await hub?.kill();
});

const nested = (depth: number) => JSON.parse("[".repeat(depth) + "]".repeat(depth)) as unknown;
const deepText = (depth: number, inner = "") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

/** The database must not change; `/api/health` must still answer. */
async function unchanged(run: () => Promise<void>) {
  await expectDbUnchanged(hub.dbFile, run);
  expect((await api(hub, "GET", "/api/health")).status).toBe(200);
}

/** `args` is JSON text, so that depths JSON.stringify cannot write can be sent. */
const rpcCall = (args: string, id = 9) =>
  mcpPost(hub, `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"artifact_publish","arguments":${args}}}`, { "mcp-session-id": session });

/** [title, method, route, body (its last key is the unknown one), the MCP tool taking the same input, if any] */
const UNKNOWN_FIELD_CASES: Array<[string, string, string, Record<string, unknown>, string]> = [
  ["owner on an artifact", "POST", "/api/artifacts", { id: "a1", type: "custom", data: {}, owner: "someone-else" }, "artifact_publish"],
  ["createdBy on a contract", "POST", "/api/contracts", { id: "c1", title: "T", assignee: "dev", createdBy: "lead" }, "contract_create"],
  ["an unknown key on a team", "POST", "/api/teams", { id: "t1", admin: true }, ""],
  ["scope on a token", "POST", "/api/tokens", { name: "mallory", kind: "member", scope: "operator" }, ""],
  ["admin on a roster member", "POST", "/api/roster", { name: "mallory", role: "dev", isLead: true }, ""],
];

for (const [title, method, route, body, tool] of UNKNOWN_FIELD_CASES) {
  attack(`unknown body field (${title}) on the HTTP API is refused like MCP refuses it`, async () => {
    await unchanged(async () => {
      const r = await api(hub, method, route, body);
      expect(r.status).toBe(400);
      const extra = Object.keys(body).at(-1)!;
      const issue = { field: "", rule: "unrecognized_keys", message: `Unrecognized key: "${extra}"` };
      expect(r.body.error).toMatchObject({ code: "invalid_input", details: { issues: [issue] } });
      if (tool) {
        const m = await call(client, tool, body);
        expect(m.isError).toBe(true);
        expect((m.structuredContent as { error: { details: { issues: unknown[] } } }).error.details.issues).toContainEqual(expect.objectContaining(issue));
      }
    });
  });
}

attack("a body 10,000 levels deep on /api gets 400 max_depth, not a 500", async () => {
  await unchanged(async () => {
    const r = await api(hub, "POST", "/api/artifacts", `{"id":"deep","type":"custom","data":${deepText(10_000)}}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_input", details: { issues: [{ field: "body", rule: "max_depth" }] } });
    expect(r.body.error.message).toMatch(/^body: must not nest arrays and objects more than 64 levels deep/);
  });
});

attack("a body one level past the limit (65) on /api is refused too", async () => {
  await unchanged(async () => {
    const r = await api(hub, "POST", "/api/artifacts", { id: "deep65", type: "custom", data: nested(64) });
    expect(r.status).toBe(400);
    expect(r.body.error.details.issues[0]).toMatchObject({ field: "body", rule: "max_depth" });
  });
});

attack("a deep value in a GET-less route body (contract criteria) is refused before the domain sees it", async () => {
  await unchanged(async () => {
    const r = await api(hub, "POST", "/api/contracts", `{"id":"c-deep","title":"T","assignee":"dev","acceptanceCriteria":${deepText(5000)}}`);
    expect(r.status).toBe(400);
    expect(r.body.error.details.issues[0]).toMatchObject({ field: "body", rule: "max_depth" });
  });
});

attack("MCP tools/call with arguments 10,000 levels deep gets -32602 naming max_depth", async () => {
  await unchanged(async () => {
    const r = await rpcCall(`{"id":"deep","type":"custom","data":${deepText(10_000)}}`);
    expect(r.status).toBe(400);
    expect(r.rpc).toMatchObject({ id: 9, error: { code: -32602, data: { field: "body", rule: "max_depth" } } });
  });
});

attack("MCP tools/call with arguments just past the limit is refused as well", async () => {
  await unchanged(async () => {
    const r = await rpcCall(`{"id":"deep","type":"custom","data":${deepText(62)}}`);
    expect(r.rpc.error).toMatchObject({ code: -32602, message: expect.stringContaining("max_depth") });
  });
});

attack("a /ws frame 10,000 levels deep gets an error frame and the socket keeps working", async () => {
  await unchanged(async () => {
    const s = openSocket(hub);
    await s.opened;
    await s.next("hello");
    s.send(`{"v":1,"type":"subscribe","team":null,"payload":{"teams":${deepText(10_000)}}}`);
    const [error] = await s.next("error");
    expect(error.payload).toMatchObject({ code: "invalid_input", message: expect.stringContaining("max_depth") });
    s.send({ v: WS_VERSION, type: "ping" });
    await s.next("pong");
    s.socket.close();
  });
});

for (const [label, args] of [
  ["a string", "not an object"],
  ["an array", [1, 2]],
  ["a number", 42],
  ["null", null],
] as Array<[string, unknown]>) {
  attack(`MCP tools/call whose arguments is ${label} gets JSON-RPC -32602`, async () => {
    await unchanged(async () => {
      const r = await rpcCall(JSON.stringify(args), 11);
      expect(r.rpc).toMatchObject({ id: 11, error: { code: -32602 } });
    });
  });
}

attack("a wrong method on an /api route answers 405 in the JSON error shape", async () => {
  await unchanged(async () => {
    for (const [method, route] of [
      ["DELETE", "/api/health"],
      ["PUT", "/api/artifacts"],
      ["PATCH", "/api/operator-token"],
    ]) {
      const r = await api(hub, method, route, {});
      expect(r.status, `${method} ${route}`).toBe(405);
      expect(r.headers["content-type"]).toMatch(/^application\/json/);
      expect(r.body.error).toMatchObject({
        code: "method_not_allowed",
        message: expect.stringContaining(method),
        details: { field: "method", rule: "allowed_method" },
      });
    }
  });
});

attack("an /api path no endpoint has answers 404 in the JSON error shape; OPTIONS lists a path's methods; HEAD is a GET without its body", async () => {
  await unchanged(async () => {
    for (const route of ["/api/nothing-here", "/api/contracts/a/b/c/d", "/api/sessions/%E0%A4%A/send"]) {
      const r = await api(hub, "POST", route, {});
      expect(r.status, route).toBe(404);
      expect(r.headers["content-type"]).toMatch(/^application\/json/);
      expect(r.body.error).toMatchObject({ code: "not_found", details: { field: "path", rule: "exists" } });
    }
    const options = await api(hub, "OPTIONS", "/api/artifacts");
    expect(options.status).toBe(204);
    expect(options.headers.allow?.split(", ").sort()).toEqual(["GET", "OPTIONS", "POST"]);
    const head = await api(hub, "HEAD", "/api/health");
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    // A literal segment comes before a `:name` one: this is the validation of a draft, not a pipeline called "validate".
    const validate = await api(hub, "POST", "/api/pipelines/validate", { rules: [] });
    expect(validate.status).toBe(200);
    expect(validate.body).toHaveProperty("issues");
  });
});

attack("a body over 4 MiB (declared length) answers 413 in the JSON error shape", async () => {
  await unchanged(async () => {
    const r = await api(hub, "POST", "/api/artifacts", { id: "big", type: "custom", data: { blob: "x".repeat(5 * 1024 * 1024) } });
    expect(r.status).toBe(413);
    expect(r.body.error).toMatchObject({ code: "too_large", details: { field: "body", rule: "max_size" } });
  });
});

/** A chunked POST, which carries no Content-Length for the front check to see; stops sending once answered. */
function chunkedPost(route: string, chunks: number, chunk: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers = { "content-type": "application/json", "transfer-encoding": "chunked" };
    const req = http.request(`${hub.url}${route}`, { method: "POST", headers }, (res) => {
      answered = true;
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on("error", (e) => answered || reject(e));
    void (async () => {
      const send = (text: string) => new Promise<void>((r) => (req.write(text) ? r() : req.once("drain", () => r())));
      await send(`{"id":"big","type":"custom","data":"`);
      for (let i = 0; i < chunks && !answered && !req.destroyed; i++) await send(chunk);
      if (!answered && !req.destroyed) req.end(`"}`);
    })();
  });
}

attack("a chunked body over 4 MiB (no Content-Length) on /api is refused up front with 411 in the JSON error shape", async () => {
  await unchanged(async () => {
    const r = await chunkedPost("/api/artifacts", 5, "x".repeat(1024 * 1024));
    expect(r.status).toBe(411);
    expect(r.body.error).toMatchObject({ code: "length_required", details: { field: "body", rule: "content_length" } });
  });
});

attack("headers over node's limit answer 431 in the JSON error shape", async () => {
  await unchanged(async () => {
    const r = await api(hub, "GET", "/api/health", undefined, { "x-padding": "p".repeat(64 * 1024) });
    expect(r.status).toBe(431);
    expect(r.body.error).toMatchObject({ code: "too_large", details: { field: "headers", rule: "max_size" } });
  });
});
