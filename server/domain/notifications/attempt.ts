/**
 * One HTTP attempt of a delivery, outside any transaction (docs/notifications.md#retries): a POST with the stored body,
 * the format's headers and a fresh signature, given up after the configured time. Only the status of the answer is
 * kept: its body is never read (a receiver, or an address inside the network, does not get to put text in the log).
 */
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER, WEBHOOK_HEADER, signature } from "./signature.ts";

export type Request = {
  url: string;
  secret: string;
  webhook: string;
  deliveryId: number;
  eventType: string;
  body: string;
  contentType: string;
  headers: Record<string, string>;
};

/** `retry`: whether another attempt could go differently (no answer, 408, 429, 5xx); any other refusal is final. */
export type Outcome = {
  delivered: boolean;
  retry: boolean;
  responseCode: number | null;
  error: string | null;
  retryAfterMs: number | null;
  durationMs: number;
};

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Why no answer came, in words that name no path or query of the URL. */
function failureOf(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; cause?: { code?: string } };
  if (err.name === "TimeoutError" || err.name === "AbortError") return `no answer within ${timeoutMs} ms`;
  // Only the error's code: a message may quote the URL, whose path can hold a token.
  return `could not reach the receiver (${err.cause?.code ?? err.name ?? "error"})`;
}

export async function attempt(req: Request, timeoutMs: number): Promise<Outcome> {
  const started = performance.now();
  const timestamp = Math.floor(Date.now() / 1000);
  const took = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const res = await fetch(req.url, {
      method: "POST",
      body: req.body,
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        ...req.headers,
        "content-type": req.contentType,
        "user-agent": "TeamHub-Webhook",
        [WEBHOOK_HEADER]: req.webhook,
        [DELIVERY_HEADER]: String(req.deliveryId),
        [EVENT_HEADER]: req.eventType,
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature(req.secret, timestamp, req.body),
      },
    });
    // The answer's body is not wanted: release the connection without waiting for it.
    res.body?.cancel().catch(() => {});
    const code = res.status;
    if (code >= 200 && code < 300) return { delivered: true, retry: false, responseCode: code, error: null, retryAfterMs: null, durationMs: took() };
    const redirect = code >= 300 && code < 400 ? " (redirects are not followed)" : "";
    return {
      delivered: false,
      retry: code === 408 || code === 429 || code >= 500,
      responseCode: code,
      error: `HTTP ${code}${res.statusText ? ` ${res.statusText}` : ""}${redirect}`,
      retryAfterMs: retryAfter(res.headers.get("retry-after"), Date.now()),
      durationMs: took(),
    };
  } catch (e) {
    return { delivered: false, retry: true, responseCode: null, error: failureOf(e, timeoutMs), retryAfterMs: null, durationMs: took() };
  }
}
