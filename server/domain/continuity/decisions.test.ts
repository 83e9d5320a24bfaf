import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { continuityKit, member, type ContinuityKit } from "../../testing/continuity-kit.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";

let hub: TempHub;
let k: Kit;
let c: ContinuityKit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
  c = continuityKit(hub);
});
afterEach(() => hub.close());

describe("recording a decision", () => {
  it("stores every field with the caller as author and emits decision.recorded", async () => {
    await k.publish({ id: "api-spec" });
    await k.create({ id: "build-api" });
    const d = await c.decide(
      {
        title: "  Use JWT for sessions ",
        decision: "Access tokens are JWTs signed with RS256, 15 minutes",
        rationale: "Stateless; the gateway can verify them",
        alternatives: ["Opaque tokens in Redis", "Session cookies"],
        related: { artifacts: ["api-spec"], contracts: ["build-api"] },
      },
      member("api-dev"),
    );
    expect(d).toEqual({
      id: 1,
      team: "default",
      title: "Use JWT for sessions",
      decision: "Access tokens are JWTs signed with RS256, 15 minutes",
      rationale: "Stateless; the gateway can verify them",
      alternatives: ["Opaque tokens in Redis", "Session cookies"],
      related: { artifacts: ["api-spec"], contracts: ["build-api"] },
      author: "api-dev",
      createdAt: expect.any(Date),
    });
    expect(hub.events.at(-1)).toMatchObject({
      type: "decision.recorded",
      subject: "decision:1",
      principal: "api-dev",
      payload: { id: 1, title: "Use JWT for sessions", author: "api-dev", related: { artifacts: ["api-spec"], contracts: ["build-api"] } },
    });
  });

  it("defaults rationale, alternatives and related to empty", async () => {
    expect(await c.decide({})).toMatchObject({ rationale: "", alternatives: [], related: { artifacts: [], contracts: [] }, author: "operator" });
  });

  it("refuses related artifacts and contracts that do not exist, naming each, and writes nothing", async () => {
    await k.publish({ id: "real" });
    const err = await refusedWithoutWriting(hub, () => c.decide({ related: { artifacts: ["real", "ghost"], contracts: ["nope"] } }));
    expect(err.message).toBe("related.artifacts[1]: artifact 'ghost' does not exist in team 'default' (and 1 more)");
    expect(issues(err)).toEqual([
      { field: "related.artifacts[1]", rule: "exists", message: "artifact 'ghost' does not exist in team 'default'", received: "ghost" },
      { field: "related.contracts[0]", rule: "exists", message: "contract 'nope' does not exist in team 'default'", received: "nope" },
    ]);
  });

  it("refuses bad input field by field and writes nothing", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ title: "   " }, "title", "too_small"],
      [{ title: "x".repeat(201) }, "title", "too_big"],
      [{ decision: undefined }, "decision", "invalid_type"],
      [{ decision: 42 }, "decision", "invalid_type"],
      [{ alternatives: "a, b" }, "alternatives", "invalid_type"],
      [{ alternatives: Array.from({ length: 21 }, (_, i) => `option ${i}`) }, "alternatives", "too_big"],
      [{ alternatives: [""] }, "alternatives[0]", "too_small"],
      [{ related: { artifacts: ["Bad Id"] } }, "related.artifacts[0]", "invalid_format"],
      [{ related: { sessions: ["x"] } }, "related", "unrecognized_keys"],
      [{ team: "no spaces" }, "team", "invalid_format"],
    ];
    for (const [input, field, rule] of cases) {
      const err = await refusedWithoutWriting(hub, () => c.decide(input));
      expect(err.code).toBe("invalid_input");
      expect(issues(err)[0], JSON.stringify(input)).toMatchObject({ field, rule });
    }
  });
});

describe("listing decisions", () => {
  it("lists newest first, pages with a cursor, and filters by time", async () => {
    for (const title of ["one", "two", "three"]) await c.decide({ title });
    const first = await c.decisions({ limit: 2 });
    expect(first.items.map((d) => d.title)).toEqual(["three", "two"]);
    expect(first.nextCursor).toBe(2);
    const rest = await c.decisions({ limit: 2, cursor: first.nextCursor });
    expect(rest).toMatchObject({ items: [{ title: "one" }], nextCursor: null });

    const cut = hub.clock.now();
    hub.clock.advance(5);
    await c.decide({ title: "four" });
    expect((await c.decisions({ since: cut.toISOString() })).items.map((d) => d.title)).toEqual(["four"]);
    expect((await c.decisions({ since: "2000-01-01" })).items).toHaveLength(4);
    expect((await c.decisions({ since: "2999-01-01T00:00:00+02:00" })).items).toEqual([]);
  });

  it("filters by the last id seen and by related artifact or contract", async () => {
    await k.publish({ id: "api-spec" });
    await k.publish({ id: "schema" });
    await k.create({ id: "build-api" });
    await c.decide({ title: "spec only", related: { artifacts: ["api-spec"] } });
    await c.decide({ title: "both", related: { artifacts: ["schema", "api-spec"], contracts: ["build-api"] } });
    await c.decide({ title: "contract only", related: { contracts: ["build-api"] } });
    const titles = async (input: Record<string, unknown>) => (await c.decisions(input)).items.map((d) => d.title);
    expect(await titles({ artifact: "api-spec" })).toEqual(["both", "spec only"]);
    expect(await titles({ artifact: "schema" })).toEqual(["both"]);
    expect(await titles({ contract: "build-api" })).toEqual(["contract only", "both"]);
    expect(await titles({ artifact: "api-spec", contract: "build-api" })).toEqual(["both"]);
    expect(await titles({ artifact: "ghost" })).toEqual([]);
    expect(await titles({ after: 1 })).toEqual(["contract only", "both"]);
    expect(await titles({ after: 1, artifact: "api-spec" })).toEqual(["both"]);
  });

  it("keeps teams apart", async () => {
    await c.decide({ title: "here" });
    await c.decide({ title: "there", team: "other" });
    expect((await c.decisions({ team: "other" })).items.map((d) => d.title)).toEqual(["there"]);
  });

  it("refuses a malformed since, limit or cursor", async () => {
    for (const [input, field] of [
      [{ since: "yesterday" }, "since"],
      [{ since: "2026-13-01" }, "since"],
      [{ limit: 0 }, "limit"],
      [{ limit: 501 }, "limit"],
      [{ cursor: -1 }, "cursor"],
      [{ after: "one" }, "after"],
      [{ artifact: "Bad Id" }, "artifact"],
      [{ contract: "" }, "contract"],
    ] as const) {
      const err = await refusedWithoutWriting(hub, () => c.decisions(input));
      expect(issues(err)[0]).toMatchObject({ field });
    }
  });
});
