/**
 * How webhooks are delivered (docs/notifications.md#retries): the time one attempt may take, how many attempts a
 * delivery gets and the first pause between them (doubled each time). The hub reads them from its environment
 * (TEAMHUB_WEBHOOK_*); tests shorten them.
 */
export type WebhookConfig = {
  /** One request's limit, connection to last header; the body of the answer is never waited for. */
  timeoutMs: number;
  /** Attempts per delivery, the first included; a test notification gets one. */
  attempts: number;
  /** The pause after the first failed attempt; each later one doubles it (plus up to 10% jitter), at most MAX_BACKOFF_MS. */
  retryBaseMs: number;
  /** Requests in flight at once per hub, and per webhook, so one slow receiver cannot hold up the others. */
  concurrency: number;
  perWebhook: number;
  /** The dashboard's address for links in notification texts; none when unknown. */
  dashboardUrl?: string;
};

export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = {
  timeoutMs: 5000,
  attempts: 6,
  retryBaseMs: 10_000,
  concurrency: 8,
  perWebhook: 2,
};

/** A receiver's Retry-After, or the doubling, never waits longer than this. */
export const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** The pause before attempt `attempt + 1`, after `attempt` failed ones; `retryAfterMs` when the receiver asked for one. */
export function backoffMs(config: Pick<WebhookConfig, "retryBaseMs">, attempt: number, retryAfterMs: number | null, random = Math.random): number {
  if (retryAfterMs !== null) return Math.min(MAX_BACKOFF_MS, Math.max(config.retryBaseMs, retryAfterMs));
  const base = Math.min(MAX_BACKOFF_MS, config.retryBaseMs * 2 ** (attempt - 1));
  return Math.min(MAX_BACKOFF_MS, Math.round(base * (1 + 0.1 * random())));
}
