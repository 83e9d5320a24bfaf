/**
 * The per-turn time limit (docs/domain.md#safety-net) as a stopwatch that stands still while a person decides
 * a permission request: time spent waiting for a decision is not the turn's (docs/sessions.md).
 * `hold()` when a request starts waiting, `release()` when it is settled; with several waiting at
 * once the clock runs again when the last one is settled, with the time that was left.
 */
export class TurnClock {
  private timer: NodeJS.Timeout | null = null;
  private holds = 0;
  private leftMs: number;
  private runningSince = 0;
  private over = false;

  constructor(
    limitMs: number,
    private readonly onLimit: () => void,
  ) {
    this.leftMs = limitMs;
    this.run();
  }

  /** The turn's own time still left. */
  get remainingMs(): number {
    return this.timer ? Math.max(0, this.leftMs - (Date.now() - this.runningSince)) : this.leftMs;
  }

  hold(): void {
    if (this.over || this.holds++ > 0) return;
    this.leftMs = this.remainingMs;
    this.clear();
  }

  release(): void {
    if (this.over || this.holds === 0) return;
    if (--this.holds === 0) this.run();
  }

  /** The turn ended: the limit no longer applies. */
  stop(): void {
    this.over = true;
    this.clear();
  }

  private run(): void {
    this.runningSince = Date.now();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.over = true;
      this.onLimit();
    }, this.leftMs);
    this.timer.unref();
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
