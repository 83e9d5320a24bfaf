import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NotBefore } from "./not-before.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("NotBefore", () => {
  it("wakes once its time has come, and keeps the later of two times", () => {
    const wake = vi.fn();
    const gate = new NotBefore(wake);
    const start = Date.now();
    gate.delay(start + 3000);
    gate.delay(start + 1000);
    expect(gate.open).toBe(false);
    vi.advanceTimersByTime(2999);
    expect(wake).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(wake).toHaveBeenCalledOnce();
    expect(gate.open).toBe(true);
  });

  it("does not take a timer that fires before the clock reaches the time as the wake-up: it waits again", () => {
    const wake = vi.fn();
    let lag = 0;
    const gate = new NotBefore(wake, () => Date.now() - lag);
    gate.delay(Date.now() + 3000);
    // By the time the timer fires, the wall clock has fallen a millisecond behind the timers' clock.
    lag = 1;
    vi.advanceTimersByTime(3000);
    expect(gate.open).toBe(false);
    expect(wake).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(gate.open).toBe(true);
    expect(wake).toHaveBeenCalledOnce();
  });

  it("wakes nobody once stopped", () => {
    const wake = vi.fn();
    const gate = new NotBefore(wake);
    gate.delay(Date.now() + 100);
    gate.stop();
    vi.advanceTimersByTime(1000);
    expect(wake).not.toHaveBeenCalled();
  });
});
