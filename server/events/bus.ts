/**
 * In-process fan-out of committed events. The domain publishes here only after COMMIT, so a
 * subscriber never sees an event that could still roll back. A failing subscriber is logged and
 * never turns the committed write into a reported failure.
 */
import type { HubEvent } from "./types.ts";

export type Subscriber = (events: readonly HubEvent[]) => void | Promise<void>;

export class EventBus {
  private readonly subscribers = new Set<Subscriber>();

  subscribe(fn: Subscriber): () => void {
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  publish(events: readonly HubEvent[]): void {
    if (events.length === 0) return;
    for (const fn of this.subscribers) {
      try {
        const r = fn(events);
        if (r && typeof (r as Promise<void>).catch === "function") (r as Promise<void>).catch(logFailure);
      } catch (e) {
        logFailure(e);
      }
    }
  }
}

function logFailure(e: unknown) {
  console.error("[teamhub] event subscriber failed:", e);
}
