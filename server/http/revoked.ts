/**
 * Live connections (/ws sockets, MCP sessions) remember the hash of the token they opened with;
 * a `token.revoked` event names the hashes that stopped working, so they close at once (docs/security.md#web-side).
 */
import type { HubEvent } from "../events/types.ts";

export function revokedTokenHashes(events: readonly HubEvent[]): Set<string> {
  const out = new Set<string>();
  for (const e of events) {
    if (e.type === "token.revoked") for (const h of e.payload.hashes) out.add(h);
  }
  return out;
}
