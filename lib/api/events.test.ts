import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { EVENT_TYPES, EventList, WireEvent } from "./events.ts";

describe("the event catalog", () => {
  it("is documented: docs/events.md has a row for every type, and no other", () => {
    const doc = fs.readFileSync(new URL("../../docs/events.md", import.meta.url), "utf8");
    const rows = [...doc.matchAll(/^\| `([a-z_.]+)`/gm)].map((m) => m[1]);
    expect(rows.toSorted()).toEqual([...EVENT_TYPES].sort());
  });

  it("decodes an event from the wire with Dates, and refuses an unknown type or a payload that does not fit", () => {
    const base = { id: 1, teamId: "t", subject: "team:t", principal: "operator", causedBy: null, depth: 0, at: "2026-05-01T10:00:00.000Z" };
    const e = WireEvent.parse({
      ...base,
      type: "chat.pair_blocked",
      payload: { members: ["a", "b"], exchanges: 5, windowSeconds: 60, until: "2026-05-01T10:01:00.000Z" },
    });
    expect(e.at).toEqual(new Date("2026-05-01T10:00:00.000Z"));
    if (e.type !== "chat.pair_blocked") throw new Error("narrowed to the wrong type");
    expect(e.payload.until).toEqual(new Date("2026-05-01T10:01:00.000Z"));
    expect(WireEvent.safeParse({ ...base, type: "test.step", payload: {} }).success).toBe(false);
    expect(WireEvent.safeParse({ ...base, type: "team.created", payload: { id: 7 } }).success).toBe(false);
    expect(EventList.parse({ events: [{ ...base, type: "team.created", payload: { id: "t" } }], lastId: 1 }).events[0].type).toBe("team.created");
  });
});
