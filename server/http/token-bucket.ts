/**
 * A token bucket: `burst` at once, then `perSecond`. Counts the refusals in a row, so a caller can
 * drop a client that keeps going past the limit.
 */
export class TokenBucket {
  private tokens: number;
  private at = Date.now();
  /** Refusals since the last request that was let through. */
  refusedInARow = 0;

  constructor(
    readonly burst: number,
    readonly perSecond: number,
  ) {
    this.tokens = burst;
  }

  /** True when the bucket has refilled to `burst`: it is then no different from a new one. */
  full(now = Date.now()): boolean {
    return this.tokens + ((now - this.at) / 1000) * this.perSecond >= this.burst;
  }

  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.perSecond);
    this.at = now;
    if (this.tokens < 1) return (this.refusedInARow++, false);
    this.tokens -= 1;
    this.refusedInARow = 0;
    return true;
  }
}
