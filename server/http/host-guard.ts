/**
 * DNS-rebinding and cross-site protection (§12): Host, and Origin when present, must name a
 * loopback host (any port) or one listed in TEAMHUB_ALLOWED_HOSTS.
 */
import type { IncomingMessage } from "node:http";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

export function isLoopbackAddress(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith("127.");
}

function hostnameOf(value: string): string | null {
  try {
    return new URL(`http://${value}`).hostname.toLowerCase();
  } catch {
    return null;
  }
}

export type GuardFailure = { field: "Host" | "Origin"; rule: string; message: string };

export function createHostGuard(extraHosts: string[]) {
  const allowed = new Set([...LOOPBACK, ...extraHosts]);
  const ok = (name: string | null) => name !== null && (allowed.has(name) || name.startsWith("127."));
  return function check(req: Pick<IncomingMessage, "headers">): GuardFailure | null {
    const host = req.headers.host ?? "";
    if (!ok(hostnameOf(host))) {
      return { field: "Host", rule: "allowed_host", message: `Host '${host}' is not allowed: use a loopback name (localhost, 127.0.0.1, [::1]) or add it to TEAMHUB_ALLOWED_HOSTS` };
    }
    const origin = req.headers.origin;
    if (origin !== undefined) {
      let name: string | null = null;
      try {
        name = origin === "null" ? null : new URL(origin).hostname.toLowerCase();
      } catch {
        name = null;
      }
      if (!ok(name === "::1" ? "[::1]" : name)) {
        return { field: "Origin", rule: "allowed_origin", message: `Origin '${origin}' is not allowed: requests must come from a page served by this hub` };
      }
    }
    return null;
  };
}
