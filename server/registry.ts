/**
 * Where Next route handlers find the services that server.ts built. Route handlers are bundled
 * separately from server.ts, so the hand-over goes through globalThis; this file imports types
 * only, which keeps the domain (and its database handles) out of the Next bundle.
 */
import type { Services } from "./services.ts";

const KEY = Symbol.for("teamhub.services");
type Holder = { [KEY]?: Services };

export function registerServices(s: Services | undefined): void {
  (globalThis as Holder)[KEY] = s;
}

export function services(): Services {
  const s = (globalThis as Holder)[KEY];
  if (!s) throw new Error("Team Hub services are not registered: start the hub with `teamhub start` (server/server.ts), not `next start`");
  return s;
}
