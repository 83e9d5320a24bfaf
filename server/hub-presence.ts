/**
 * This hub among others on one database (docs/hubs.md): it beats its heartbeat and, on the same tick, declares lost
 * any other hub whose heartbeat stopped. A hub that finds itself declared lost (it was frozen or cut off for longer
 * than the limit) must stop at once: its sessions were interrupted and may already run on another hub.
 */
import type { DomainDeps } from "./domain/deps.ts";
import { beat, sweepLostHubs } from "./domain/hubs/hubs.service.ts";

/** `maxLive`: this hub's admission limit, reported for the sessions a lost hub leaves queued. */
export function startPresence(deps: DomainDeps, hub: { id: string; heartbeatMs: number; lostAfterMs: number; maxLive: number }, onDeclaredLost: () => void) {
  let busy = false;
  let lost = false;
  const tick = async () => {
    if (busy || lost) return;
    busy = true;
    try {
      if (!(await beat(deps, hub.id))) {
        lost = true;
        console.error(`[teamhub] another hub declared this hub (${hub.id}) lost and interrupted its sessions; stopping`);
        onDeclaredLost();
        return;
      }
      const others = await sweepLostHubs(deps, hub.lostAfterMs, hub.maxLive);
      if (others.length) console.warn(`[teamhub] hub(s) ${others.join(", ")} stopped answering: their sessions are interrupted`);
    } catch (e) {
      console.error("[teamhub] heartbeat failed:", e);
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), hub.heartbeatMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
    },
  };
}
