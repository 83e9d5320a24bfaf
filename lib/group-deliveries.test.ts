import { describe, expect, it } from "vitest";
import { groupDeliveries } from "./group-deliveries.ts";

const at = "2026-01-10T12:00:00.000Z";
// Each row its own Date, as parsed from the wire: the same time is the same instant, not the same object.
const row = (id: number, from: string, to: string, kind: string, text: string, sentAt = at) => ({ id, from, to, kind, text, sentAt: new Date(sentAt) });

describe("groupDeliveries", () => {
  it("joins the rows of one broadcast and keeps everything else apart", () => {
    const groups = groupDeliveries([
      row(5, "db-dev", "qa-dev", "broadcast", "migrating"),
      row(4, "db-dev", "api-dev", "broadcast", "migrating"),
      row(3, "db-dev", "api-dev", "dm", "migrating"),
      row(2, "db-dev", "qa-dev", "dm", "migrating", "2026-01-10T12:00:01.000Z"),
      row(1, "api-dev", "qa-dev", "dm", "hi"),
    ]);
    expect(groups.map((g) => [g.first.id, g.to, g.rows.map((r) => r.id)])).toEqual([
      [5, ["qa-dev", "api-dev"], [5, 4]],
      [3, ["api-dev"], [3]],
      [2, ["qa-dev"], [2]],
      [1, ["qa-dev"], [1]],
    ]);
  });
  it("is empty for no rows", () => expect(groupDeliveries([])).toEqual([]));
});
