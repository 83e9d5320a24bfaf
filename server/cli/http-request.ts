/**
 * The CLI's requests to the hub, over node:http instead of Node's fetch. Fetch loads its implementation (undici) at
 * the first call: about 25 ms of CPU, a tenth of a whole command (docs/testing.md#processes). node:http also has no
 * response-time limit of its own, which the requests that wait on purpose need (`team-ask` waits up to 600 s, and the
 * hub sends its headers only with the answer); the others keep fetch's: headers within 300 s. Same inputs and answer
 * as fetch, so the client library's error handling stays one piece of code.
 */
import http from "node:http";
import https from "node:https";
import type { FetchLike } from "../../lib/api/call.ts";

/** What fetch allows for the response headers. */
const HEADERS_WITHIN_MS = 300_000;

/** A fetch over node:http whose response headers must come within `limitMs` (null: no limit). */
export function httpFetch(limitMs: number | null): FetchLike {
  return (url, init) => {
    const transport = new URL(url).protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      // The length, as fetch sends it: node:http frames a body of a DELETE (or GET) neither by length nor in chunks, and the
      // hub then read its bytes as the next request.
      const headers = init.body === undefined ? init.headers : { ...init.headers, "content-length": String(Buffer.byteLength(init.body)) };
      const req = transport.request(url, { method: init.method, headers, signal: init.signal }, (res) => {
        req.setTimeout(0);
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => (text += d));
        res.on("end", () => {
          const status = res.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, status, statusText: res.statusMessage ?? "", text: async () => text });
        });
        res.on("error", reject);
      });
      if (limitMs !== null) req.setTimeout(limitMs, () => req.destroy(Object.assign(new Error(`no answer in ${limitMs / 1000} s`), { code: "ETIMEDOUT" })));
      // Shaped like fetch's network error, so callers read the reason from `cause.code` either way; an abort stays one.
      req.on("error", (e) => reject(e.name === "AbortError" ? e : Object.assign(new Error("fetch failed"), { cause: e })));
      req.end(init.body);
    });
  };
}

export const fetchOverHttp = httpFetch(HEADERS_WITHIN_MS);
/** For the requests that wait on purpose (`endpoint.waits`): no limit. */
export const fetchWaiting = httpFetch(null);
