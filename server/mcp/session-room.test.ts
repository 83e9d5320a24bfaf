import { describe, expect, it } from "vitest";
import { SessionRoom, type Seat } from "./session-room.ts";

const limits = { perOwner: 3, total: 5, activeMs: 30_000 };

function room() {
  const sessions = new Map<string, Seat>();
  const dropped: string[] = [];
  const r = new SessionRoom(sessions, limits, (id) => {
    dropped.push(id);
    sessions.delete(id);
  });
  /** Opens a session as the hub does: a place reserved, the session registered, the place released. */
  const open = (id: string, owner: string, now: number): boolean => {
    if (!r.reserve(owner, now)) return false;
    sessions.set(id, { owner, lastUsed: now, inFlight: 0 });
    r.release(owner);
    return true;
  };
  return { sessions, dropped, open, r };
}

describe("MCP session places", () => {
  it("a principal past its cap takes the place of its least recently used idle session", () => {
    const { sessions, dropped, open } = room();
    open("a1", "alice", 0);
    open("a2", "alice", 1_000);
    open("a3", "alice", 2_000);
    sessions.get("a1")!.lastUsed = 5_000; // used again: a2 is now the least recently used
    expect(open("a4", "alice", 60_000)).toBe(true);
    expect(dropped).toEqual(["a2"]);
  });

  it("never evicts an active session: one used within the window, or with a request in flight; the new one is refused", () => {
    const { sessions, dropped, open } = room();
    open("a1", "alice", 0);
    open("a2", "alice", 0);
    open("a3", "alice", 0);
    expect(open("a4", "alice", 10_000)).toBe(false);
    sessions.get("a1")!.inFlight = 1;
    sessions.get("a2")!.lastUsed = 50_000;
    sessions.get("a3")!.lastUsed = 50_000;
    expect(open("a4", "alice", 60_000)).toBe(false); // a1 is busy (a long call), a2 and a3 were used 10 s ago
    expect(dropped).toEqual([]);
    sessions.get("a1")!.inFlight = 0;
    expect(open("a4", "alice", 60_000)).toBe(true);
    expect(dropped).toEqual(["a1"]);
  });

  it("counts initializes still under way, so a burst cannot pass the cap", () => {
    const { r } = room();
    expect([1, 2, 3, 4].map(() => r.reserve("alice", 0))).toEqual([true, true, true, false]);
  });

  it("at the hub-wide cap the principal holding the most gives up an idle session, never another principal's active one", () => {
    const { sessions, dropped, open } = room();
    open("a1", "alice", 0);
    open("a2", "alice", 0);
    open("a3", "alice", 0);
    open("b1", "bob", 0);
    open("c1", "carol", 50_000);
    expect(open("d1", "dave", 60_000)).toBe(true);
    expect(dropped).toEqual(["a1"]);
    // Everyone active now: dave's next session is refused, nobody is cut off.
    for (const id of ["a2", "a3", "b1"]) sessions.get(id)!.lastUsed = 60_000;
    expect(open("d2", "dave", 61_000)).toBe(false);
    expect(dropped).toEqual(["a1"]);
  });
});
