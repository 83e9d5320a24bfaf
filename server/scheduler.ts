/**
 * Background duties that must happen even when nobody calls: today, failing overdue contracts.
 * Deadlines are stored, so the first tick after a restart catches up on everything missed.
 */
import { failOverdue } from "./domain/contracts/contracts.service.ts";
import type { DomainDeps } from "./domain/deps.ts";
import { SCHEDULER } from "./domain/principal.ts";

export function startScheduler(deps: DomainDeps, intervalMs: number) {
  let running = false;
  let stopped = false;
  const tick = async () => {
    if (running || stopped) return;
    running = true;
    try {
      await failOverdue(deps, SCHEDULER);
    } catch (e) {
      console.error("[teamhub] scheduler tick failed:", e);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  void tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      while (running) await new Promise((r) => setTimeout(r, 5));
    },
  };
}
