/**
 * Who gets a place among the /mcp sessions (docs/security.md#web-side): at most `perOwner` per owner (a principal, or a
 * supervised session apart from the other clients of its member) and `total` in all. A new session past a cap takes
 * the place of the owner's least recently used IDLE session (at the hub-wide cap: of the owner holding the most); a
 * session is active while a request of it is in flight and for `activeMs` after its last one, and an active session is
 * never evicted: when every session in question is active, the new one is refused instead (429), and the client retries.
 * An agent in the middle of a turn keeps its session; one that went quiet gives its place up.
 */
export type Seat = { owner: string; lastUsed: number; inFlight: number };

export type RoomLimits = { perOwner: number; total: number; activeMs: number };

export class SessionRoom<S extends Seat> {
  /** Places promised to initializes still under way, by owner: a burst of them cannot all pass the cap. */
  private readonly reserved = new Map<string, number>();

  constructor(
    private readonly sessions: Map<string, S>,
    private readonly limits: RoomLimits,
    private readonly drop: (id: string) => void,
  ) {}

  idle(s: Seat, now: number): boolean {
    return s.inFlight === 0 && now - s.lastUsed >= this.limits.activeMs;
  }

  /**
   * A place for one more session of `owner`, evicting an idle one if a cap needs it; false when none can be made. The
   * caller calls `release` once the session is registered (or failed to start).
   */
  reserve(owner: string, now: number): boolean {
    const counts = new Map<string, number>(this.reserved);
    for (const s of this.sessions.values()) counts.set(s.owner, (counts.get(s.owner) ?? 0) + 1);
    if ((counts.get(owner) ?? 0) >= this.limits.perOwner) {
      if (!this.evictIdle((s) => s.owner === owner, now)) return false;
    } else if (this.sessions.size + this.reservedCount() >= this.limits.total) {
      // The owners holding the most give up first, each its least recently used idle session.
      const byCount = [...counts].sort((a, b) => b[1] - a[1]);
      if (!byCount.some(([o]) => this.evictIdle((s) => s.owner === o, now))) return false;
    }
    this.reserved.set(owner, (this.reserved.get(owner) ?? 0) + 1);
    return true;
  }

  release(owner: string): void {
    const n = (this.reserved.get(owner) ?? 0) - 1;
    if (n > 0) this.reserved.set(owner, n);
    else this.reserved.delete(owner);
  }

  private reservedCount(): number {
    let n = 0;
    for (const v of this.reserved.values()) n += v;
    return n;
  }

  /** Drops the least recently used idle session among those `matching`; false when there is none. */
  private evictIdle(matching: (s: S) => boolean, now: number): boolean {
    let found: [string, S] | undefined;
    for (const entry of this.sessions) {
      const s = entry[1];
      if (matching(s) && this.idle(s, now) && (!found || s.lastUsed < found[1].lastUsed)) found = entry;
    }
    if (!found) return false;
    this.drop(found[0]);
    return true;
  }
}
