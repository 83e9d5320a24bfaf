/**
 * How a receiver knows a request came from its hub (docs/notifications.md#signature): every request carries
 * `X-TeamHub-Timestamp` (Unix seconds when it was sent) and `X-TeamHub-Signature: sha256=<hex>`, the HMAC-SHA256 with
 * the webhook's secret of `<timestamp>.<raw body>`. The timestamp is inside the signed text, so a request replayed
 * later fails the receiver's freshness check without the signature being forgeable.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SIGNATURE_HEADER = "x-teamhub-signature";
export const TIMESTAMP_HEADER = "x-teamhub-timestamp";
/** Present on every request the hub sends as a webhook: the hub refuses requests that carry it (docs/security.md). */
export const WEBHOOK_HEADER = "x-teamhub-webhook";
export const DELIVERY_HEADER = "x-teamhub-delivery";
export const EVENT_HEADER = "x-teamhub-event";

/** A new secret: 32 random bytes, base64url, with a prefix that says what it is when it turns up somewhere. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64url")}`;

export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** The receiver's check, as docs/notifications.md shows it: the signature matches and the timestamp is fresh. */
export function verifySignature(
  secret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  body: string,
  { toleranceSeconds = 300, now = Date.now() } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts) || Math.abs(now / 1000 - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(signature(secret, ts, body));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
