import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DbAdapter, WriteBody } from "../../db/adapter.ts";
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { ArtifactRefInput, GetArtifactInput, HistoryInput, ListArtifactsInput, PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { CreateContractInput } from "../../../lib/api/contracts.ts";
import { ListEventsInput } from "../../../lib/api/teams.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { createContract } from "../contracts/contracts.service.ts";
import { listEvents } from "../events/events.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { archiveTeam, createTeam, listTeams } from "../teams/teams.service.ts";
import { MAX_DATA_BYTES, artifactHistory, artifactReaders, getArtifact, listArtifacts, publishArtifact } from "./artifacts.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const member = (name: string): Principal => ({ name, kind: "member" });
const ALICE = member("alice");
const BOB = member("bob");

const publish = (input: Record<string, unknown>, actor: Principal = OPERATOR) =>
  publishArtifact(hub, actor, PublishArtifactInput.parse({ type: "custom", data: {}, ...input }));
const get = (input: Record<string, unknown>, actor: Principal = OPERATOR) => getArtifact(hub, actor, GetArtifactInput.parse(input));
const history = (id: string, team = "default") => artifactHistory(hub, HistoryInput.parse({ id, team, includeData: true }));
const readers = (id: string) => artifactReaders(hub, ArtifactRefInput.parse({ id }));
const list = (filters: Record<string, unknown> = {}) => listArtifacts(hub, ListArtifactsInput.parse(filters));
const ids = async (filters: Record<string, unknown> = {}) => (await list(filters)).items.map((a) => a.id);

/** Marks one version rolled back, the way a snapshot rollback will (versions are never deleted). */
const markRolledBack = (id: string, version: number) =>
  hub.db.write("test.rollback", "operator", (tx) =>
    tx.run(
      sql`UPDATE "ArtifactVersion" SET "status" = 'rolled_back' WHERE "version" = ${version} AND "artifactPk" = (SELECT "pk" FROM "Artifact" WHERE "id" = ${id})`,
    ),
  );

describe("versions", () => {
  it("assigns 1, 2, 3 and never changes a published version", async () => {
    const results = [];
    for (const n of [1, 2, 3]) results.push(await publish({ id: "spec", data: { n }, summary: `round ${n}` }, ALICE));
    expect(results.map((r) => r.version)).toEqual([1, 2, 3]);
    expect(results.map((r) => r.seq)).toEqual([1, 2, 3]);
    const firstTwo = (await snapshotTables(hub)).ArtifactVersion.slice(0, 2);

    await publish({ id: "spec", data: { n: 4 } }, BOB);
    expect((await snapshotTables(hub)).ArtifactVersion.slice(0, 2)).toEqual(firstTwo);

    const h = await history("spec");
    expect(h.artifact).toMatchObject({ id: "spec", type: "custom", latestVersion: 4, currentVersion: 4, status: "active", publisher: "bob" });
    expect(h.versions.map((v) => [v.version, v.data, v.publisher, v.status, v.summary])).toEqual([
      [1, { n: 1 }, "alice", "active", "round 1"],
      [2, { n: 2 }, "alice", "active", "round 2"],
      [3, { n: 3 }, "alice", "active", "round 3"],
      [4, { n: 4 }, "bob", "active", ""],
    ]);
  });

  it("leaves data out of the history unless asked", async () => {
    await publish({ id: "spec", data: { big: true } });
    const h = await artifactHistory(hub, HistoryInput.parse({ id: "spec" }));
    expect(h.versions).toHaveLength(1);
    expect(h.versions[0]).not.toHaveProperty("data");
    expect(h.versions[0].size).toBe(JSON.stringify({ big: true }).length);
  });

  it("keeps the name unless a new one is given, and records the publishing session", async () => {
    await publish({ id: "spec", name: "The spec" });
    const v2 = await publish({ id: "spec" }, { name: "worker", kind: "agent", sessionId: "sess-1" });
    expect(v2).toMatchObject({ name: "The spec", sessionId: "sess-1", publisher: "worker" });
    expect((await publish({ id: "spec", name: "Renamed" })).name).toBe("Renamed");
    expect((await history("spec")).artifact.name).toBe("Renamed");
  });

  it("refuses to change the type of an artifact", async () => {
    await publish({ id: "spec", type: "custom" });
    const err = await refusedWithoutWriting(hub, () => publish({ id: "spec", type: "test-results", data: { total: 1, passed: 1, failed: 0 } }));
    expect(err.code).toBe("invalid_input");
    expect(err.message).toBe("type: artifact 'spec' has type 'custom'; a new version cannot change it");
    expect(issues(err)[0]).toMatchObject({ field: "type", rule: "immutable_type", received: "test-results" });
  });

  it("gives 404 for an artifact that does not exist", async () => {
    expect((await refusal(history("ghost"))).code).toBe("not_found");
    expect((await refusal(readers("ghost"))).details).toMatchObject({ field: "id", id: "ghost" });
  });
});

describe("well-known types", () => {
  it.each([
    [
      "api-contract",
      {
        endpoints: [
          { method: "get", path: "/users", response: { type: "array" } },
          { method: "POST", path: "/users" },
        ],
      },
    ],
    ["schema-change", { models: [{ name: "User", action: "create", fields: ["email", { name: "id", type: "uuid" }] }] }],
    ["schema-change", { models: [{ name: "User", fields: { email: "string" } }], note: "extra keys are kept" }],
    ["component-spec", { componentName: "Button", props: { label: "string" }, states: ["idle", "busy"], events: ["click"] }],
    ["component-spec", { componentName: "List", props: ["items"] }],
    ["test-results", { total: 10, passed: 7, failed: 2, skipped: 1, failures: [{ name: "login", message: "401" }, { name: "logout" }] }],
    ["test-results", { total: 3, passed: 1, failed: 1 }],
    [
      "file-manifest",
      {
        files: [
          { path: "src/a.ts", action: "create", description: "new" },
          { path: "b.ts", action: "delete" },
        ],
      },
    ],
    ["file-manifest", { files: [] }],
    [
      "config-change",
      {
        changes: [
          { key: "PORT", oldValue: 3000, newValue: 4000 },
          { key: "DEBUG", newValue: null },
        ],
      },
    ],
    ["custom", { anything: ["goes", 1, null] }],
    ["custom", "plain text"],
    ["custom", null],
  ])("accepts valid %s data", async (type, data) => {
    const v = await publish({ id: "x", type, data });
    expect(v).toMatchObject({ version: 1, type });
    expect((await get({ id: "x" })).data).toEqual(data);
  });

  it.each([
    ["api-contract", { endpoints: [{ method: "GET", path: "users" }] }, "data.endpoints[0].path", "must start with '/'"],
    [
      "api-contract",
      {
        endpoints: [
          { method: "GET", path: "/" },
          { method: "FETCH", path: "/x" },
        ],
      },
      "data.endpoints[1].method",
      "must be an HTTP method",
    ],
    ["api-contract", { endpoints: [] }, "data.endpoints", "must list at least one endpoint"],
    ["api-contract", { routes: [] }, "data.endpoints", "expected array"],
    ["api-contract", "GET /users", "data", "expected object"],
    ["schema-change", { models: [{ name: "", fields: [] }] }, "data.models[0].name", "must not be empty"],
    ["schema-change", { models: [{ name: "User", action: "drop", fields: [] }] }, "data.models[0].action", "create"],
    ["schema-change", { models: [{ name: "User", fields: 3 }] }, "data.models[0].fields", "must be a list of fields or an object"],
    ["schema-change", { models: [] }, "data.models", "must list at least one model"],
    ["component-spec", { props: {} }, "data.componentName", "expected string"],
    ["component-spec", { componentName: "X", states: "idle" }, "data.states", "expected array"],
    ["test-results", { total: 5, passed: 4, failed: 2 }, "data.passed", "passed + failed + skipped must be ≤ total (got 4 + 2 + 0 = 6 > 5)"],
    ["test-results", { total: 5, passed: 3, failed: 1, skipped: 2 }, "data.passed", "(got 3 + 1 + 2 = 6 > 5)"],
    ["test-results", { total: 1.5, passed: 1, failed: 0 }, "data.total", "must be a whole number"],
    ["test-results", { total: 3, passed: -1, failed: 0 }, "data.passed", "must be ≥ 0"],
    ["test-results", { total: 3, passed: "3", failed: 0 }, "data.passed", "must be a number"],
    ["test-results", { total: 1, passed: 0, failed: 1, failures: [{ message: "boom" }] }, "data.failures[0].name", "expected string"],
    ["file-manifest", { files: [{ path: "a.ts", action: "touch" }] }, "data.files[0].action", "modify"],
    ["file-manifest", { files: [{ path: "", action: "create" }] }, "data.files[0].path", "must not be empty"],
    ["config-change", { changes: [{ key: "PORT" }] }, "data.changes[0].newValue", "data.changes[0].newValue: is required (null to unset)"],
    ["config-change", { changes: [{ newValue: 1 }] }, "data.changes[0].key", "expected string"],
  ])("refuses invalid %s data, naming %s", async (type, data, field, fragment) => {
    const err = await refusedWithoutWriting(hub, () => publish({ id: "x", type, data }));
    expect(err.code).toBe("invalid_input");
    expect(err.status).toBe(400);
    expect(err.message.startsWith(`${field}: `)).toBe(true);
    expect(err.message).toContain(fragment);
    expect(issues(err)[0].field).toBe(field);
  });

  it("reports every failing field, not just the first", async () => {
    const err = await refusal(publish({ id: "x", type: "api-contract", data: { endpoints: [{ method: "NOPE", path: "x" }] } }));
    expect((err.details.issues as Array<{ field: string }>).map((i) => i.field)).toEqual(["data.endpoints[0].method", "data.endpoints[0].path"]);
    expect(err.message).toMatch(/^data\.endpoints\[0\]\.method: .* \(and 1 more\)$/);
  });

  it("refuses an unknown type, listing the known ones", async () => {
    const err = await refusedWithoutWriting(hub, () => publish({ id: "x", type: "mystery" }));
    expect(err.code).toBe("invalid_input");
    expect(issues(err)[0]).toMatchObject({ field: "type", rule: "known_type", received: "mystery" });
    expect(err.message).toBe(
      "type: unknown artifact type 'mystery'; use one of api-contract, schema-change, component-spec, test-results, file-manifest, config-change, custom or register it for team 'default'",
    );
  });
});

describe("size limit", () => {
  // JSON.stringify of a string adds its two quotes.
  it("accepts data of exactly 1 MiB", async () => {
    const v = await publish({ id: "big", data: "x".repeat(MAX_DATA_BYTES - 2) });
    expect(v.size).toBe(MAX_DATA_BYTES);
  });

  it("refuses data over 1 MiB with too_large and writes nothing", async () => {
    const err = await refusedWithoutWriting(hub, () => publish({ id: "big", data: "x".repeat(MAX_DATA_BYTES - 1) }));
    expect(err.code).toBe("too_large");
    expect(err.status).toBe(413);
    expect(err.message).toBe(`data: must be at most ${MAX_DATA_BYTES} bytes (1 MiB) of JSON; got ${MAX_DATA_BYTES + 1} bytes`);
    expect(issues(err)[0]).toMatchObject({ field: "data", rule: "max_size" });
  });

  it("counts bytes, not characters", async () => {
    const err = await refusal(publish({ id: "big", data: { s: "é".repeat(MAX_DATA_BYTES / 2) } }));
    expect(err.code).toBe("too_large");
  });
});

describe("derivedFrom", () => {
  beforeEach(async () => {
    await publish({ id: "base", data: { v: 1 } });
    await publish({ id: "base", data: { v: 2 } });
  });

  it("keeps an explicit id@vN", async () => {
    const child = await publish({ id: "child", derivedFrom: ["base@v1"] });
    expect(child.derivedFrom).toEqual(["base@v1"]);
  });

  it("pins a bare id to the latest version at publish time, for good", async () => {
    const child = await publish({ id: "child", derivedFrom: ["base"] });
    expect(child.derivedFrom).toEqual(["base@v2"]);
    await publish({ id: "base", data: { v: 3 } });
    expect((await history("child")).versions[0].derivedFrom).toEqual(["base@v2"]);
    expect((await get({ id: "child" })).derivedFrom).toEqual(["base@v2"]);
    const edges = (await snapshotTables(hub)).LineageEdge;
    expect(edges).toEqual([{ id: 1, fromSeq: 2, toSeq: child.seq, kind: "derived", contractId: null }]);
  });

  it("pins a bare id to the latest active version, skipping rolled-back ones", async () => {
    await markRolledBack("base", 2);
    expect((await publish({ id: "child", derivedFrom: ["base"] })).derivedFrom).toEqual(["base@v1"]);
    // An explicit reference still names exactly that version, whatever its status.
    expect((await publish({ id: "child2", derivedFrom: ["base@v2"] })).derivedFrom).toEqual(["base@v2"]);
  });

  it("records a version referenced twice once", async () => {
    await publish({ id: "other" });
    const child = await publish({ id: "child", derivedFrom: ["base", "base@v2", "other@v1"] });
    expect(child.derivedFrom).toEqual(["base@v2", "other@v1"]);
    expect((await snapshotTables(hub)).LineageEdge).toHaveLength(2);
  });

  it.each([
    [["nope"], "derivedFrom[0]", "artifact 'nope' has no active version in team 'default'"],
    [["base@v1", "base@v9"], "derivedFrom[1]", "artifact version 'base@v9' does not exist in team 'default'"],
    // Resolved together (current versions in one query, exact ones in another): still the first missing one, in order.
    [["base", "base@v1", "nope", "base@v9"], "derivedFrom[2]", "artifact 'nope' has no active version in team 'default'"],
  ])("refuses %j, naming %s", async (derivedFrom, field, message) => {
    const err = await refusedWithoutWriting(hub, () => publish({ id: "child", derivedFrom }));
    expect(err.code).toBe("invalid_input");
    expect(err.message).toBe(`${field}: ${message}`);
    expect(issues(err)[0]).toMatchObject({ field, rule: "exists" });
  });

  it("does not resolve references across teams", async () => {
    const err = await refusal(publish({ id: "child", team: "other", derivedFrom: ["base@v1"] }));
    expect(err.message).toBe("derivedFrom[0]: artifact version 'base@v1' does not exist in team 'other'");
  });
});

describe("tags", () => {
  const tagsOf = async (id: string) => (await list()).items.find((a) => a.id === id)!.tags;

  it("replaces the tag set when tags are given and keeps it otherwise", async () => {
    await publish({ id: "a", tags: ["b", "a", "b"] });
    expect(await tagsOf("a")).toEqual(["a", "b"]);
    await publish({ id: "a" });
    expect(await tagsOf("a")).toEqual(["a", "b"]);
    await publish({ id: "a", tags: ["c"] });
    expect(await tagsOf("a")).toEqual(["c"]);
    await publish({ id: "a", tags: [] });
    expect(await tagsOf("a")).toEqual([]);
  });
});

describe("expectedVersion", () => {
  it("publishes when it matches; 0 means the artifact must not exist yet", async () => {
    expect((await publish({ id: "a", expectedVersion: 0 })).version).toBe(1);
    expect((await publish({ id: "a", expectedVersion: 1 })).version).toBe(2);
  });

  it.each([
    [1, 0, 1, "expectedVersion: artifact 'a' is at version 1, not the expected 0"],
    [1, 3, 1, "expectedVersion: artifact 'a' is at version 1, not the expected 3"],
    [0, 2, 0, "expectedVersion: artifact 'a' is at version 0, not the expected 2"],
  ])("with %i existing versions, expecting %i is a conflict (actual %i)", async (existing, expected, actual, message) => {
    for (let i = 0; i < existing; i++) await publish({ id: "a" });
    const err = await refusedWithoutWriting(hub, () => publish({ id: "a", expectedVersion: expected }));
    expect(err.code).toBe("conflict");
    expect(err.status).toBe(409);
    expect(err.message).toBe(message);
    expect(err.details).toEqual({ field: "expectedVersion", expected, actual });
  });
});

describe("contractId", () => {
  it("must name an existing contract of the team", async () => {
    const err = await refusedWithoutWriting(hub, () => publish({ id: "a", contractId: "ghost" }));
    expect(err.code).toBe("invalid_input");
    expect(err.message).toBe("contractId: contract 'ghost' does not exist in team 'default'");
  });

  it("is recorded on the version", async () => {
    await createContract(hub, OPERATOR, CreateContractInput.parse({ id: "work", title: "Work", assignee: "dev" }));
    expect((await publish({ id: "a", contractId: "work" })).contractId).toBe("work");
    expect((await history("a")).versions[0].contractId).toBe("work");
  });
});

describe("reads", () => {
  beforeEach(async () => {
    await publish({ id: "doc", data: { v: 1 } });
    await publish({ id: "doc", data: { v: 2 } });
  });

  it("returns the latest version and records who read it", async () => {
    const before = hub.events.length;
    const v = await get({ id: "doc" }, ALICE);
    expect(v).toMatchObject({ artifactId: "doc", version: 2, data: { v: 2 }, status: "active" });
    expect(hub.events.slice(before)).toMatchObject([
      { type: "artifact.read", subject: "artifact:doc@v2", principal: "alice", payload: { artifactId: "doc", version: 2, reader: "alice" } },
    ]);
    const r = await readers("doc");
    expect(r.readers).toMatchObject([{ reader: "alice", reads: 1, lastVersion: 2 }]);
    expect(r.reads).toMatchObject([{ reader: "alice", version: 2 }]);
    expect(r.reads[0].at).toBeInstanceOf(Date);
  });

  it("reads a given version, and summarises reads per reader, newest first", async () => {
    expect((await get({ id: "doc", version: 1 }, ALICE)).data).toEqual({ v: 1 });
    await get({ id: "doc" }, BOB);
    await get({ id: "doc" }, ALICE);
    const r = await readers("doc");
    expect(r.readers.map((s) => [s.reader, s.reads, s.lastVersion])).toEqual([
      ["alice", 2, 2],
      ["bob", 1, 2],
    ]);
    expect(r.reads.map((x) => [x.reader, x.version])).toEqual([
      ["alice", 2],
      ["bob", 2],
      ["alice", 1],
    ]);
  });

  it("skips rolled-back versions unless one is asked for by number", async () => {
    await markRolledBack("doc", 2);
    expect((await get({ id: "doc" })).version).toBe(1);
    expect(await get({ id: "doc", version: 2 })).toMatchObject({ version: 2, status: "rolled_back", data: { v: 2 } });
    await markRolledBack("doc", 1);
    const err = await refusal(get({ id: "doc" }));
    expect(err).toMatchObject({
      code: "not_found",
      message: "id: artifact 'doc' has no active version (all were rolled back)",
      details: { field: "id", rule: "active_version" },
    });
  });

  it.each([
    [{ id: "ghost" }, "id: artifact 'ghost' does not exist", "id"],
    [{ id: "doc", version: 9 }, "version: artifact version 'doc@v9' does not exist", "version"],
  ])("refuses %j with not_found naming the field", async (input, message, field) => {
    const err = await refusedWithoutWriting(hub, () => get(input));
    expect(err).toMatchObject({ code: "not_found", message, status: 404 });
    expect(err.details.field).toBe(field);
  });
});

describe("list", () => {
  beforeEach(async () => {
    await publish({ id: "a", tags: ["x"] }, ALICE);
    await publish({ id: "b", type: "test-results", data: { total: 1, passed: 1, failed: 0 }, tags: ["x", "y"] }, BOB);
    await publish({ id: "c" }, ALICE);
    await publish({ id: "c" }, BOB);
    await publish({ id: "elsewhere", team: "other" }, ALICE);
  });

  it.each([
    [{}, ["a", "b", "c"]],
    [{ type: "custom" }, ["a", "c"]],
    [{ type: "test-results" }, ["b"]],
    [{ publisher: "alice" }, ["a"]],
    [{ publisher: "bob" }, ["b", "c"]],
    [{ tag: "x" }, ["a", "b"]],
    [{ tag: "y" }, ["b"]],
    [{ tag: "x", type: "custom" }, ["a"]],
    [{ status: "active" }, ["a", "b", "c"]],
    [{ status: "rolled_back" }, []],
    [{ team: "other" }, ["elsewhere"]],
  ])("filters by %j", async (filters, expected) => {
    expect(await ids(filters)).toEqual(expected);
  });

  it("filters by the status of the latest version", async () => {
    await markRolledBack("c", 2);
    expect(await ids({ status: "rolled_back" })).toEqual(["c"]);
    expect(await ids({ status: "active" })).toEqual(["a", "b"]);
    // The publisher is the one of the current (newest active) version.
    expect(await ids({ publisher: "alice" })).toEqual(["a", "c"]);
    expect((await list()).items.find((a) => a.id === "c")).toMatchObject({ latestVersion: 2, currentVersion: 1, status: "rolled_back", publisher: "alice" });
  });

  it("pages with a cursor", async () => {
    const first = await list({ limit: 2 });
    expect(first.items.map((a) => a.id)).toEqual(["a", "b"]);
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ limit: 2, cursor: first.nextCursor });
    expect(second.items.map((a) => a.id)).toEqual(["c"]);
    expect(second.nextCursor).toBeNull();
    expect((await list({ limit: 3 })).nextCursor).toBeNull();
  });

  it("describes each artifact", async () => {
    const b = (await list({ type: "test-results" })).items[0];
    expect(b).toMatchObject({
      id: "b",
      team: "default",
      type: "test-results",
      name: "b",
      tags: ["x", "y"],
      latestVersion: 1,
      currentVersion: 1,
      status: "active",
      publisher: "bob",
    });
    expect(b.createdAt).toBeInstanceOf(Date);
  });
});

describe("events and effects", () => {
  it("emits artifact.published with the version's facts, after team.created for a new team", async () => {
    await publish({ id: "base" });
    const before = hub.events.length;
    const v = await publish({ id: "spec", team: "t2", name: "Spec", summary: "first", derivedFrom: [], data: { a: 1 } }, ALICE);
    const events = hub.events.slice(before);
    expect(events.map((e) => e.type)).toEqual(["team.created", "artifact.published"]);
    expect(events[1]).toMatchObject({ teamId: "t2", subject: "artifact:spec@v1", principal: "alice", depth: 0, causedBy: null });
    expect(events[1].payload).toEqual({
      artifactId: "spec",
      version: 1,
      seq: v.seq,
      type: "custom",
      name: "Spec",
      publisher: "alice",
      contractId: null,
      derivedFrom: [],
      summary: "first",
      size: JSON.stringify({ a: 1 }).length,
    });
    // The same event is in the log.
    const logged = await listEvents(hub, OPERATOR, ListEventsInput.parse({ team: "t2", type: "artifact.published" }));
    expect(logged.events).toMatchObject([{ id: events[1].id, payload: events[1].payload }]);
    expect(v.effects).toEqual([]);
  });

  it("lists the contract changes a publish caused, cascades included", async () => {
    const create = (input: Record<string, unknown>) => createContract(hub, OPERATOR, CreateContractInput.parse({ title: "t", assignee: "dev", ...input }));
    await create({ id: "api", expectedOutputs: [{ artifactType: "api-contract" }] });
    await create({ id: "tests", dependencies: [{ type: "contract", contractId: "api" }], expectedOutputs: [{ artifactType: "test-results" }] });
    const v = await publish({ id: "auth-api", type: "api-contract", data: { endpoints: [{ method: "POST", path: "/login" }] } });
    expect(v.effects).toEqual([
      { contractId: "api", from: "ready", to: "completed", reason: "acceptance criteria met" },
      { contractId: "tests", from: "pending", to: "ready", reason: "dependencies satisfied" },
    ]);
  });
});

/** The statements every write runs from now on, in order: the hub's adapter is observed, not replaced. */
function statementsOf(h: TempHub): string[] {
  const seen: string[] = [];
  const adapter = h.db.adapter;
  const transaction = adapter.transaction.bind(adapter);
  adapter.transaction = <T>(fn: (s: Sql) => Promise<WriteBody<T>>, options: Parameters<DbAdapter["transaction"]>[1]) =>
    transaction(
      (s) =>
        fn({
          dialect: s.dialect,
          all: (q) => (seen.push(q.text), s.all(q)),
          get: (q) => (seen.push(q.text), s.get(q)),
          run: (q) => (seen.push(q.text), s.run(q)),
        }),
      options,
    );
  return seen;
}

describe("watchers", () => {
  it("are looked up only when an open contract watches the artifact or its type, which the publish learns with its artifact's row", async () => {
    const endpoints = (path: string) => ({ endpoints: [{ method: "GET", path }] });
    await publish({ id: "auth-api", type: "api-contract", data: endpoints("/a") });
    await publish({ id: "notes", data: {} });
    await createContract(
      hub,
      OPERATOR,
      CreateContractInput.parse({ id: "api", title: "t", assignee: "dev", expectedOutputs: [{ artifactType: "api-contract" }] }),
    );
    const statements = statementsOf(hub);
    const lookups = () => statements.filter((s) => s.includes(`AS "watchKind"`)).length;

    await publish({ id: "notes", data: { n: 2 } });
    expect(lookups()).toBe(0);
    const watched = await publish({ id: "auth-api", type: "api-contract", data: endpoints("/b") });
    // One for the publish, one for the watchers of the contract it completed.
    expect(lookups()).toBe(2);
    expect(watched.effects).toEqual([{ contractId: "api", from: "ready", to: "completed", reason: "acceptance criteria met" }]);
    // Completed, the contract watches no more.
    await publish({ id: "auth-api", type: "api-contract", data: endpoints("/c") });
    expect(lookups()).toBe(2);
  });
});

describe("teams", () => {
  it("are created explicitly or by a first write, listed, and archived once", async () => {
    expect(await createTeam(hub, OPERATOR, { id: "Alpha" })).toMatchObject({ id: "Alpha", archivedAt: null, settings: {} });
    expect(await refusal(createTeam(hub, OPERATOR, { id: "Alpha" }))).toMatchObject({ code: "conflict", message: "id: team 'Alpha' already exists" });
    await publish({ id: "doc", team: "beta" });
    const archived = await archiveTeam(hub, OPERATOR, { team: "beta" });
    expect(archived.archivedAt).toBeInstanceOf(Date);
    expect((await listTeams(hub)).map((t) => [t.id, t.archivedAt !== null])).toEqual([
      ["Alpha", false],
      ["beta", true],
    ]);
    expect(await refusal(archiveTeam(hub, OPERATOR, { team: "beta" }))).toMatchObject({ code: "team_archived", message: "team 'beta' is already archived" });
    expect(await refusal(archiveTeam(hub, OPERATOR, { team: "gamma" }))).toMatchObject({ code: "not_found", details: { field: "team" } });
  });
});

describe("archived teams", () => {
  it("refuse publishing but stay readable", async () => {
    await publish({ id: "doc", team: "old", data: { v: 1 } });
    await archiveTeam(hub, OPERATOR, { team: "old" });
    const err = await refusedWithoutWriting(hub, () => publish({ id: "doc", team: "old" }));
    expect(err).toMatchObject({ code: "team_archived", status: 423, message: "team 'old' is archived; it can be read but not changed" });
    expect((await get({ id: "doc", team: "old" })).data).toEqual({ v: 1 });
    expect((await history("doc", "old")).versions).toHaveLength(1);
    expect(await ids({ team: "old" })).toEqual(["doc"]);
  });
});
