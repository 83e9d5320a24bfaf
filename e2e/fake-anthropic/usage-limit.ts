/**
 * What the Messages API answers a subscriber whose five-hour window is used up until `resetMs`: a 429 with the
 * `anthropic-ratelimit-unified-*` headers, from which the real CLI prints its `rate_limit_event` (docs/limits.md).
 */
import type { Reply } from "./server.ts";

export function usedUpWindow(resetMs: number): Reply {
  return {
    error: 429,
    type: "rate_limit_error",
    message: "This request would exceed your account's rate limit. Please try again later.",
    headers: {
      "anthropic-ratelimit-unified-status": "rejected",
      "anthropic-ratelimit-unified-reset": String(Math.ceil(resetMs / 1000)),
      "anthropic-ratelimit-unified-representative-claim": "five_hour",
    },
  };
}
