import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "../../db/sql.ts";
import { continuityKit, member, type ContinuityKit } from "../../testing/continuity-kit.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";

let hub: TempHub;
let c: ContinuityKit;
beforeEach(async () => {
  hub = await tempHub();
  c = continuityKit(hub);
});
afterEach(() => hub.close());

describe("registering patterns", () => {
  it("inserts a pattern with the caller as author and emits pattern.registered", async () => {
    const p = await c.register(
      { name: "error-envelope", description: "Errors are {error: {code, message, details}}", examples: ['{"error":{"code":"not_found"}}'] },
      member("api-dev"),
    );
    expect(p).toEqual({
      name: "error-envelope",
      team: "default",
      description: "Errors are {error: {code, message, details}}",
      examples: ['{"error":{"code":"not_found"}}'],
      author: "api-dev",
      createdAt: expect.any(Date),
      updatedAt: p.createdAt,
      outcome: "created",
    });
    expect(hub.events.at(-1)).toMatchObject({
      type: "pattern.registered",
      subject: "pattern:error-envelope",
      payload: { name: "error-envelope", outcome: "created", author: "api-dev" },
    });
  });

  it("appends the new text as the convention now: new text and author, original createdAt, the old text kept in wisdom", async () => {
    const first = await c.register({ name: "naming", description: "kebab-case files" });
    hub.clock.advance(5);
    const second = await c.register(
      { name: "naming", description: "kebab-case files, PascalCase components", examples: ["user-service.ts", "UserCard.tsx"] },
      member("qa-dev"),
    );
    expect(second).toMatchObject({ outcome: "updated", author: "qa-dev", createdAt: first.createdAt, examples: ["user-service.ts", "UserCard.tsx"] });
    expect(second.updatedAt.getTime()).toBeGreaterThan(first.updatedAt.getTime());
    const { outcome: _, ...stored } = second;
    expect(await c.pattern("naming")).toEqual(stored);
    expect(await hub.db.read((s) => s.all(sql`SELECT "kind", "title", "body" FROM "Wisdom" ORDER BY "id"`))).toEqual([
      { kind: "convention", title: "naming", body: "kebab-case files" },
      { kind: "convention", title: "naming", body: "kebab-case files, PascalCase components" },
    ]);
    expect(hub.events.at(-1)).toMatchObject({ type: "pattern.registered", payload: { outcome: "updated", author: "qa-dev" } });
  });

  it("changes nothing and announces nothing when the same text is registered again", async () => {
    await c.register({ name: "naming", description: "kebab-case", examples: ["a-b.ts"] });
    const events = hub.events.length;
    const again = await c.register({ name: "naming", description: "kebab-case", examples: ["a-b.ts"] }, member("someone"));
    expect(again).toMatchObject({ outcome: "unchanged", author: "operator" });
    expect(hub.events.length).toBe(events);
  });

  it("refuses bad names, descriptions and examples, and writes nothing", async () => {
    for (const [input, field, rule] of [
      [{ name: "Error Envelope" }, "name", "invalid_format"],
      [{ name: "../etc" }, "name", "invalid_format"],
      [{ name: "x", description: "" }, "description", "too_small"],
      [{ name: "x", description: "d".repeat(10_001) }, "description", "too_big"],
      [{ name: "x", examples: Array.from({ length: 21 }, () => "e") }, "examples", "too_big"],
      [{ name: "x", examples: [7] }, "examples[0]", "invalid_type"],
    ] as const) {
      const err = await refusedWithoutWriting(hub, () => c.register(input));
      expect(issues(err)[0], JSON.stringify(input).slice(0, 60)).toMatchObject({ field, rule });
    }
  });
});

describe("reading patterns", () => {
  it("gets one by name and says which field names a missing one", async () => {
    await c.register({ name: "naming" });
    expect((await c.pattern("naming")).description).toBe("How we do it");
    const err = await refusal(c.pattern("missing"));
    expect(err).toMatchObject({ code: "not_found", message: "name: pattern 'missing' does not exist", details: { field: "name", rule: "exists" } });
  });

  it("lists by name and pages after the last name", async () => {
    for (const name of ["tests", "errors", "naming"]) await c.register({ name });
    await c.register({ name: "elsewhere", team: "other" });
    const first = await c.patterns({ limit: 2 });
    expect(first).toMatchObject({ items: [{ name: "errors" }, { name: "naming" }], nextCursor: "naming" });
    expect(await c.patterns({ limit: 2, cursor: "naming" })).toMatchObject({ items: [{ name: "tests" }], nextCursor: null });
  });
});
