import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpFetch } from "./http-request.ts";

let server: http.Server;
let base: string;
const later: http.ServerResponse[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === "/slow") return void later.push(res);
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, auth: req.headers.authorization ?? null, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of later) res.destroy();
  await new Promise((r) => server.close(r));
});

describe("the CLI's requests over node:http", () => {
  it("answers as fetch does: status, ok and the text, with the method, headers and body sent", async () => {
    const res = await httpFetch(1000)(`${base}/x`, { method: "POST", headers: { authorization: "Bearer t" }, body: '{"a":1}' });
    expect([res.ok, res.status, res.statusText]).toEqual([true, 200, "OK"]);
    expect(JSON.parse(await res.text())).toEqual({ method: "POST", auth: "Bearer t", body: '{"a":1}' });
    // A DELETE's body is framed by its length, as fetch sends it, and the connection serves the next request after it.
    for (let i = 0; i < 2; i++) {
      const deleted = await httpFetch(1000)(`${base}/x`, { method: "DELETE", headers: {}, body: `{"n":${i}}` });
      expect(JSON.parse(await deleted.text())).toMatchObject({ method: "DELETE", body: `{"n":${i}}` });
    }
    const missing = await httpFetch(1000)(`${base}/missing`, { method: "GET", headers: {} });
    expect([missing.ok, missing.status]).toEqual([false, 404]);
  });

  it("fails as fetch does when nothing listens: the reason in cause.code", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((r) => closed.close(r));
    await expect(httpFetch(1000)(url, { method: "GET", headers: {} })).rejects.toMatchObject({ message: "fetch failed", cause: { code: "ECONNREFUSED" } });
  });

  it("gives up on headers that do not come within its limit, and waits as long as it takes without one", async () => {
    await expect(httpFetch(200)(`${base}/slow`, { method: "GET", headers: {} })).rejects.toMatchObject({ cause: { code: "ETIMEDOUT" } });
    const waiting = httpFetch(null)(`${base}/slow`, { method: "GET", headers: {} });
    await expect.poll(() => later.length).toBe(2);
    setTimeout(() => later[1].end("late"), 400);
    expect(await (await waiting).text()).toBe("late");
  });

  it("stops at its signal with an AbortError, as fetch does", async () => {
    const controller = new AbortController();
    const pending = httpFetch(null)(`${base}/slow`, { method: "GET", headers: {}, signal: controller.signal });
    await expect.poll(() => later.length).toBe(3);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
  });
});
