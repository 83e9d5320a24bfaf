import { describe, expect, it } from "vitest";
import { ago } from "./relative-time.ts";

describe("ago", () => {
  const now = Date.parse("2026-01-10T12:00:00Z");
  it("rounds down to the largest unit that fits", () => {
    expect(ago("2026-01-10T11:59:58Z", now)).toBe("just now");
    expect(ago("2026-01-10T11:59:18Z", now)).toBe("42 s ago");
    expect(ago(new Date("2026-01-10T11:54:30Z"), now)).toBe("5 min ago");
    expect(ago("2026-01-10T08:59:00Z", now)).toBe("3 h ago");
    expect(ago("2026-01-08T11:00:00Z", now)).toBe("2 d ago");
  });
  it("says 'just now' for a clock slightly ahead of this one", () => {
    expect(ago("2026-01-10T12:00:03Z", now)).toBe("just now");
  });
});
