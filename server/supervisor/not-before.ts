/**
 * A time before which a session starts no turn (a retry's delay, a held session's place in a release), and the timer
 * that calls `wake` once it has come. A timer can fire a millisecond before `Date.now()` reaches its time (libuv's
 * monotonic clock and the wall clock are truncated to milliseconds apart; about 1 in 150 here), so an early firing is
 * set again instead of trusted: taken as the wake-up, it found the gate still shut and the queued turn then waited
 * for good.
 */
export class NotBefore {
  private at = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly wake: () => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** No turn before `at` (a time from `now`), nor before any later time already set. */
  delay(at: number): void {
    this.at = Math.max(this.at, at);
    this.arm();
  }

  get open(): boolean {
    return this.now() >= this.at;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    this.stop();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (this.open) this.wake();
        else this.arm();
      },
      Math.max(0, this.at - this.now()),
    );
    this.timer.unref();
  }
}
