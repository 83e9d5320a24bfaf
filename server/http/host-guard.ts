/**
 * DNS-rebinding and cross-site protection (docs/security.md#web-side): Host, and Origin when present, must
 * name exactly `localhost`, an IPv4 literal in 127.0.0.0/8, `[::1]`, or a name listed in
 * TEAMHUB_ALLOWED_HOSTS — any port. Nothing is a prefix match: `127.attacker.example`,
 * `127.0.0.1.nip.io` and `localhost.evil.com` are names an attacker's DNS can point at us.
 * The raw header text is checked, not a URL parser's normalisation of it.
 */
import type { IncomingMessage } from "node:http";

const OCTET = /^(0|[1-9]\d{0,2})$/;

/** Four decimal octets 0–255, the first 127; no leading zeros, no shorthand such as `127.1`. */
export function isLoopbackIPv4(name: string): boolean {
  const parts = name.split(".");
  return parts.length === 4 && parts.every((p) => OCTET.test(p) && Number(p) <= 255) && parts[0] === "127";
}

const isLoopbackName = (name: string) => name === "localhost" || name === "[::1]" || isLoopbackIPv4(name);

/** Whether a listen address (TEAMHUB_HOST) keeps the hub on this machine. */
export function isLoopbackAddress(host: string): boolean {
  const name = host.toLowerCase();
  return isLoopbackName(name) || name === "::1";
}

/** `name[:port]` or `[v6][:port]` → the lower-cased name (brackets kept), or null when malformed. */
export function hostName(value: string): string | null {
  const m = /^(\[[0-9a-f:.]+\]|[^\s:[\]/@?#]+)(?::\d{1,5})?$/i.exec(value);
  return m ? m[1].toLowerCase() : null;
}

/** The host name of an `Origin` header (`scheme://host[:port]`), or null for `null` and anything else. */
export function originName(value: string): string | null {
  const m = /^https?:\/\/(.+)$/i.exec(value);
  return m ? hostName(m[1]) : null;
}

export type GuardFailure = { field: "Host" | "Origin"; rule: string; message: string };

export function createHostGuard(extraHosts: string[]) {
  const extra = new Set(extraHosts.map((h) => h.toLowerCase()));
  const ok = (name: string | null) => name !== null && (isLoopbackName(name) || extra.has(name));
  return function check(req: Pick<IncomingMessage, "headers">): GuardFailure | null {
    const host = req.headers.host ?? "";
    if (!ok(hostName(host))) {
      return {
        field: "Host",
        rule: "allowed_host",
        message: `Host '${host}' is not allowed: use a loopback name (localhost, 127.0.0.1, [::1]) or add it to TEAMHUB_ALLOWED_HOSTS`,
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !ok(originName(origin))) {
      return { field: "Origin", rule: "allowed_origin", message: `Origin '${origin}' is not allowed: requests must come from a page served by this hub` };
    }
    return null;
  };
}
