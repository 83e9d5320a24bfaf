/**
 * `fetch` for requests that legitimately wait minutes for their answer (`team-ask` up to 600 s).
 * Node's fetch gives up when response headers take longer than 300 s, and the hub sends its
 * headers only with the answer; node:http has no such limit. Same inputs and output as fetch, so
 * the caller's error handling stays one piece of code.
 */
import http from "node:http";
import https from "node:https";

type Init = { method: string; headers: Record<string, string>; body?: string };

export function fetchWaiting(url: string, init: Init): Promise<Response> {
  const transport = new URL(url).protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(url, { method: init.method, headers: init.headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve(new Response(text, { status: res.statusCode ?? 0, statusText: res.statusMessage ?? "" })));
      res.on("error", reject);
    });
    // Shaped like fetch's network error, so callers read the reason from `cause.code` either way.
    req.on("error", (e) => reject(Object.assign(new Error("fetch failed"), { cause: e })));
    req.end(init.body);
  });
}
