/**
 * Waiting for a committed event instead of polling: subscribe first, then do the write, then
 * wait, so an event published between the write and the wait is never missed.
 */
import type { EventBus } from "./bus.ts";
import type { HubEvent } from "./types.ts";

export type EventWait<T> = { promise: Promise<T | null>; cancel(): void };

/**
 * Resolves with `pick(event)` for the first event where it is not undefined, or null at the
 * timeout, on cancel(), or when `signal` aborts (the caller went away and no longer needs it).
 */
export function waitForEvent<T>(bus: EventBus, pick: (e: HubEvent) => T | undefined, timeoutMs: number, signal?: AbortSignal): EventWait<T> {
  let settle!: (v: T | null) => void;
  const promise = new Promise<T | null>((r) => (settle = r));
  const unsubscribe = bus.subscribe((events) => {
    for (const e of events) {
      const v = pick(e);
      if (v !== undefined) return done(v);
    }
  });
  const timer = setTimeout(() => done(null), timeoutMs);
  const abort = () => done(null);
  signal?.addEventListener("abort", abort, { once: true });
  if (signal?.aborted) abort();
  function done(v: T | null) {
    clearTimeout(timer);
    unsubscribe();
    signal?.removeEventListener("abort", abort);
    settle(v);
  }
  return { promise, cancel: () => done(null) };
}
