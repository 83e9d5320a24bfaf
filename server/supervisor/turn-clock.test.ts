import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TurnClock } from "./turn-clock.ts";

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("TurnClock", () => {
  it("fires after the limit when nothing waits for a person", () => {
    const onLimit = vi.fn();
    new TurnClock(3000, onLimit);
    vi.advanceTimersByTime(2999);
    expect(onLimit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onLimit).toHaveBeenCalledOnce();
  });

  it("stands still while a decision is pending and resumes with the time that was left", () => {
    const onLimit = vi.fn();
    const clock = new TurnClock(3000, onLimit);
    vi.advanceTimersByTime(1000);
    clock.hold();
    vi.advanceTimersByTime(3_600_000);
    expect(onLimit).not.toHaveBeenCalled();
    expect(clock.remainingMs).toBe(2000);
    clock.release();
    vi.advanceTimersByTime(1999);
    expect(onLimit).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(onLimit).toHaveBeenCalledOnce();
  });

  it("with several requests waiting, runs again only when the last is settled", () => {
    const onLimit = vi.fn();
    const clock = new TurnClock(3000, onLimit);
    clock.hold();
    clock.hold();
    clock.release();
    vi.advanceTimersByTime(10_000);
    expect(clock.remainingMs).toBe(3000);
    expect(onLimit).not.toHaveBeenCalled();
    clock.release();
    clock.release(); // one release too many changes nothing
    vi.advanceTimersByTime(3000);
    expect(onLimit).toHaveBeenCalledOnce();
  });

  it("never fires once stopped, nor after it fired", () => {
    const onLimit = vi.fn();
    const stopped = new TurnClock(1000, onLimit);
    stopped.hold();
    stopped.stop();
    stopped.release();
    const fired = new TurnClock(1000, onLimit);
    vi.advanceTimersByTime(1000);
    fired.hold();
    fired.release();
    vi.advanceTimersByTime(5000);
    expect(onLimit).toHaveBeenCalledOnce();
  });
});
