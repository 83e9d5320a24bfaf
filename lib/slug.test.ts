import { describe, expect, it } from "vitest";
import { EntityId } from "./ids.ts";
import { slugOf } from "./slug.ts";

describe("ids from titles", () => {
  it("makes a valid id of any title", () => {
    expect(slugOf("Create User API")).toBe("create-user-api");
    expect(slugOf("  Café: résumé — v2!  ")).toBe("cafe-resume-v2");
    expect(slugOf("---")).toBe("");
    const long = slugOf("word ".repeat(60));
    expect(long.length).toBeLessThanOrEqual(128);
    expect(long.endsWith("-")).toBe(false);
    for (const t of ["Create User API", "Ünïcödé tïtle", "a".repeat(300), "x - y"]) expect(EntityId.safeParse(slugOf(t)).success).toBe(true);
  });
});
