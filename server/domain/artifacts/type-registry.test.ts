import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput, RegisterTypeInput } from "../../../lib/api/artifacts.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { archiveTeam } from "../teams/teams.service.ts";
import { publishArtifact } from "./artifacts.service.ts";
import { listTypes, registerType } from "./type-registry.ts";
import { WELL_KNOWN_TYPES, wellKnownJsonSchema, type WellKnownType } from "./well-known-types.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const register = (name: string, jsonSchema: unknown, team = "default") => registerType(hub, OPERATOR, RegisterTypeInput.parse({ team, name, jsonSchema }));
const publish = (type: string, data: unknown, team = "default") => publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ team, id: "x", type, data }));

const RELEASE_NOTES = {
  type: "object",
  required: ["version", "items"],
  properties: {
    version: { type: "string", pattern: "^\\d+\\.\\d+\\.\\d+$" },
    items: {
      type: "array",
      minItems: 1,
      items: { type: "object", required: ["title"], properties: { title: { type: "string" }, breaking: { type: "boolean" } } },
    },
    "first name": { type: "string" },
    "a/b": { type: "number" },
  },
};

describe("team types", () => {
  beforeEach(async () => {
    const t = await register("release-notes", RELEASE_NOTES);
    expect(t).toEqual({ name: "release-notes", builtIn: false, jsonSchema: RELEASE_NOTES });
  });

  it("registers with an event and validates publishes against the schema", async () => {
    expect(hub.events.at(-1)).toMatchObject({ type: "artifact_type.registered", subject: "type:release-notes", payload: { name: "release-notes" } });
    const v = await publish("release-notes", { version: "1.2.0", items: [{ title: "Faster", breaking: false }] });
    expect(v).toMatchObject({ version: 1, type: "release-notes" });
  });

  it.each([
    [{ version: "1.2.0", items: [{ title: 1 }] }, "data.items[0].title", "type"],
    [{ version: "1.2.0", items: [{ title: "a" }, { breaking: true }] }, "data.items[1]", "required"],
    [{ version: "1.2.0", items: [] }, "data.items", "minItems"],
    [{ version: "v1", items: [{ title: "a" }] }, "data.version", "pattern"],
    [{ items: [{ title: "a" }] }, "data", "required"],
    [{ version: "1.0.0", items: [{ title: "a" }], "first name": 3 }, "data.first name", "type"],
    [{ version: "1.0.0", items: [{ title: "a" }], "a/b": "x" }, "data.a/b", "type"],
    [[], "data", "type"],
  ])("refuses %j, naming %s (rule %s)", async (data, field, rule) => {
    const err = await refusedWithoutWriting(hub, () => publish("release-notes", data));
    expect(err.code).toBe("invalid_input");
    expect(issues(err)[0]).toMatchObject({ field, rule });
    expect(err.message.startsWith(`${field}: `)).toBe(true);
  });

  it("reports only the failing leaves, one issue per problem", async () => {
    const err = await refusal(publish("release-notes", { version: "x", items: [{ title: 1 }] }));
    expect(issues(err).map((i) => `${i.field} ${i.rule}`)).toEqual(["data.version pattern", "data.items[0].title type"]);
    expect(err.message).toContain("(and 1 more)");
  });

  it("is registered per team", async () => {
    const err = await refusal(publish("release-notes", { version: "1.0.0", items: [{ title: "a" }] }, "other"));
    expect(issues(err)[0]).toMatchObject({ field: "type", rule: "known_type" });
    expect(err.message).toContain("or register it for team 'other'");
  });

  it("can be re-registered with a new schema", async () => {
    await register("release-notes", { type: "object", required: ["summary"] });
    expect((await snapshotTables(hub)).ArtifactType).toHaveLength(1);
    expect(issues(await refusal(publish("release-notes", { version: "1.0.0", items: [{ title: "a" }] })))[0]).toMatchObject({
      field: "data",
      rule: "required",
    });
    expect((await publish("release-notes", { summary: "ok" })).version).toBe(1);
  });
});

describe("registration refusals", () => {
  it.each(Object.keys(WELL_KNOWN_TYPES))("refuses to redefine the well-known type %s", async (name) => {
    const err = await refusedWithoutWriting(hub, () => register(name, { type: "object" }));
    expect(err).toMatchObject({ code: "conflict", message: `name: '${name}' is a well-known type and cannot be redefined`, details: { field: "name" } });
  });

  it.each([
    [{ $ref: "#/$defs/missing" }, 'Unresolved $ref "#/$defs/missing"'],
    [{ type: "object", properties: { a: { $ref: "https://example.com/a.json" } } }, 'Unresolved $ref "https://example.com/a.json"'],
  ])("refuses the unusable schema %j", async (jsonSchema, fragment) => {
    const err = await refusedWithoutWriting(hub, () => register("broken", jsonSchema));
    expect(err.code).toBe("invalid_input");
    expect(issues(err)[0]).toMatchObject({ field: "jsonSchema", rule: "valid_schema" });
    expect(err.message).toMatch(/^jsonSchema: is not a usable JSON Schema: /);
    expect(err.message).toContain(fragment);
  });

  it("accepts references that resolve, and follows them when validating", async () => {
    await register("checklist", {
      $defs: { item: { type: "object", required: ["title"], properties: { title: { type: "string" } } } },
      type: "object",
      properties: { items: { type: "array", items: { $ref: "#/$defs/item" } } },
    });
    expect((await publish("checklist", { items: [{ title: "a" }] })).version).toBe(1);
    const err = await refusal(publish("checklist", { items: [{ title: "a" }, { title: 2 }] }));
    expect(issues(err).map((i) => i.field)).toEqual(["data.items[1].title"]);
  });

  it("refuses a schema over 64 KiB", async () => {
    const err = await refusedWithoutWriting(hub, () => register("huge", { type: "object", description: "d".repeat(64 * 1024) }));
    expect(issues(err)[0]).toMatchObject({ field: "jsonSchema", rule: "max_size" });
  });

  it("refuses in an archived team", async () => {
    await register("release-notes", RELEASE_NOTES, "old");
    await archiveTeam(hub, OPERATOR, { team: "old" });
    const err = await refusedWithoutWriting(hub, () => register("other-notes", RELEASE_NOTES, "old"));
    expect(err.code).toBe("team_archived");
  });
});

describe("listTypes", () => {
  it("lists the built-in types with their JSON Schemas, then the team's own", async () => {
    await register("zeta-report", { type: "object" });
    await register("alpha-report", { type: "array" });
    await register("elsewhere", { type: "string" }, "other");
    const types = await listTypes(hub, { team: "default" });
    const builtIn = Object.keys(WELL_KNOWN_TYPES) as WellKnownType[];
    expect(types.map((t) => [t.name, t.builtIn])).toEqual([...builtIn.map((n) => [n, true]), ["alpha-report", false], ["zeta-report", false]]);
    for (const name of builtIn) expect(types.find((t) => t.name === name)!.jsonSchema).toEqual(wellKnownJsonSchema(name));
    expect(types.at(-1)!.jsonSchema).toEqual({ type: "object" });
  });

  it("exports well-known types as draft 2020-12 JSON Schema", () => {
    const api = wellKnownJsonSchema("api-contract");
    expect(api).toMatchObject({ $schema: "https://json-schema.org/draft/2020-12/schema", type: "object", required: ["endpoints"] });
    expect(wellKnownJsonSchema("test-results")).toMatchObject({
      required: ["total", "passed", "failed"],
      description: "passed + failed + skipped must be ≤ total",
    });
    expect(wellKnownJsonSchema("config-change")).toMatchObject({ properties: { changes: { items: { required: ["key", "newValue"] } } } });
  });
});
