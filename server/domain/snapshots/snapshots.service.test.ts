import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import type { SnapshotRow } from "../../db/rows.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const stored = async (id: string) =>
  (await hub.db.read((s) =>
    s.get<Pick<SnapshotRow, "size" | "kind"> & { bytes: number }>(sql`SELECT length("state") AS "bytes", "size", "kind" FROM "Snapshot" WHERE "id" = ${id}`),
  ))!;

describe("taking a snapshot", () => {
  it("captures contracts exactly and artifacts as pointers, gzipped, and emits snapshot.created", async () => {
    await k.publish({ id: "spec", data: { v: 1 } });
    await k.publish({ id: "spec", data: { v: 2 } });
    await k.create({
      id: "build",
      assignee: "dev",
      inputs: { context: "x" },
      dependencies: [{ type: "artifact", artifactId: "spec", minVersion: 2 }],
      expectedOutputs: [{ artifactType: "custom", artifactId: "out" }],
    });
    await k.join("dev", "busy", "build");
    const contract = await k.contract("build");

    const meta = await k.snapshot({ id: "s1", label: "first" });
    expect(meta).toMatchObject({
      id: "s1",
      team: "default",
      label: "first",
      kind: "manual",
      createdBy: "operator",
      maxSeq: 2,
      counts: { contracts: 1, artifacts: 1, pipelines: 0, members: 1 },
    });
    expect(meta.size).toBe((await stored("s1")).bytes);
    expect(hub.events.at(-1)).toMatchObject({ type: "snapshot.created", subject: "snapshot:s1", payload: { id: "s1", kind: "manual", size: meta.size } });

    const { state } = await k.get("s1");
    expect(state.contracts).toEqual([
      {
        pk: 1,
        id: "build",
        title: "Work",
        description: "",
        assigner: "operator",
        assignee: "dev",
        inputs: { context: "x" },
        dependencies: [{ type: "artifact", artifactId: "spec", minVersion: 2 }],
        expectedOutputs: [{ artifactType: "custom", artifactId: "out", required: true }],
        acceptanceCriteria: [],
        priority: "normal",
        timeoutMs: null,
        deadlineAt: null,
        maxRetries: 3,
        retryCount: 0,
        status: "ready",
        statusReason: "dependencies satisfied",
        windowStartSeq: 2,
        pinnedInputs: null,
        outputs: null,
        startedAt: null,
        completedAt: null,
        createdAt: contract.createdAt.toISOString(),
        updatedAt: contract.updatedAt.toISOString(),
      },
    ]);
    expect(state.artifacts).toEqual({ index: [{ id: "spec", pk: 1, version: 2, seq: 2 }], archived: [], rolledBackSeqs: [] });
    expect(state.roster).toEqual([expect.objectContaining({ name: "dev", status: "busy", currentTask: "build" })]);
    expect(state.gate).toEqual({ gateCount: 0, gatesAtLastBatch: 0, spawnBatchCount: 0, lastSpawnAt: null, lastGateAt: null });
  });

  it("generates an id when none is given", async () => {
    const meta = await k.snapshot();
    expect(meta.id).toMatch(/^snap-\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(meta.id).toMatch(/^[a-z0-9][a-z0-9._-]{0,127}$/);
  });

  it("stores pointers, never artifact data: a large artifact does not make it bigger", async () => {
    await k.publish({ id: "big", data: { text: "small" } });
    const before = await k.snapshot({ id: "before" });
    await k.publish({ id: "big", data: { text: randomBytes(400_000).toString("hex") } });
    const after = await k.snapshot({ id: "after" });
    expect(Math.abs(after.size - before.size)).toBeLessThan(16);
    expect(after.size).toBeLessThan(1000);
  });

  it("refuses a duplicate id, the reserved id 'current' and malformed ids or labels, writing nothing", async () => {
    await k.snapshot({ id: "s1" });
    const dup = await refusedWithoutWriting(hub, () => k.snapshot({ id: "s1" }));
    expect(dup).toMatchObject({ code: "conflict", message: "id: snapshot 's1' already exists in team 'default'", details: { field: "id", rule: "unique" } });
    const reserved = await refusedWithoutWriting(hub, () => k.snapshot({ id: "current" }));
    expect(issues(reserved)).toEqual([expect.objectContaining({ field: "id", rule: "custom", message: expect.stringContaining("'current' is reserved") })]);
    for (const id of ["Upper", "-dash", "a".repeat(129), "has space", 7]) {
      const bad = await refusedWithoutWriting(hub, () => k.snapshot({ id }));
      expect(bad.code).toBe("invalid_input");
      expect(issues(bad)[0]).toMatchObject({ field: "id" });
    }
    const label = await refusedWithoutWriting(hub, () => k.snapshot({ label: "x".repeat(201) }));
    expect(issues(label)[0]).toMatchObject({ field: "label", rule: "too_big", message: "must be at most 200 characters" });
  });
});

describe("listing, reading and deleting", () => {
  it("lists metadata newest first with counts, pages with a cursor, and never returns state", async () => {
    // Enough varied contracts that the compressed state is larger than the prefix listing reads.
    for (let i = 0; i < 150; i++) await k.create({ id: `c${i}`, inputs: { context: randomBytes(24).toString("hex") } });
    await k.snapshot({ id: "older" });
    await k.publish({ id: "a1" });
    await k.snapshot({ id: "newer" });
    expect((await stored("newer")).bytes).toBeGreaterThan(4096);

    const { items, nextCursor } = await k.list();
    expect(items.map((s) => [s.id, s.counts])).toEqual([
      ["newer", { contracts: 150, artifacts: 1, pipelines: 0, members: 0 }],
      ["older", { contracts: 150, artifacts: 0, pipelines: 0, members: 0 }],
    ]);
    expect(items[0]).not.toHaveProperty("state");
    expect(items[0].size).toBe((await stored("newer")).bytes);
    expect(nextCursor).toBeNull();
    const first = await k.list({ limit: 1 });
    expect(first.items.map((s) => s.id)).toEqual(["newer"]);
    expect((await k.list({ limit: 1, cursor: first.nextCursor })).items.map((s) => s.id)).toEqual(["older"]);
    expect((await k.list({ team: "other" })).items).toEqual([]);
  });

  it("gets the decoded state and deletes", async () => {
    await k.create({ id: "c" });
    await k.snapshot({ id: "s1" });
    const got = await k.get("s1");
    expect(got).toMatchObject({ id: "s1", kind: "manual", counts: { contracts: 1 } });
    expect(got.state).toEqual({ ...(await k.state()), lastEventId: got.lastEventId });
    expect(await k.remove("s1")).toEqual({ id: "s1", deleted: true });
    expect(hub.events.at(-1)).toMatchObject({ type: "snapshot.deleted", payload: { id: "s1" } });
    expect((await k.list()).items).toEqual([]);
  });

  it("answers an unknown snapshot with not_found naming the field, writing nothing", async () => {
    await k.snapshot({ id: "s1" });
    const calls: Array<[() => Promise<unknown>, string]> = [
      [() => k.get("ghost"), "id"],
      [() => k.remove("ghost"), "id"],
      [() => k.rollback("ghost"), "id"],
      [() => k.replay({ id: "ghost" }), "id"],
      [() => k.diff("ghost", "current"), "a"],
      [() => k.diff("s1", "ghost"), "b"],
    ];
    for (const [call, field] of calls) {
      const err = await refusedWithoutWriting(hub, call);
      expect(err).toMatchObject({ code: "not_found", message: `${field}: snapshot 'ghost' does not exist`, details: { field, rule: "exists" } });
    }
    const elsewhere = await refusedWithoutWriting(hub, () => k.rollback("s1", "other"));
    expect(elsewhere).toMatchObject({ code: "not_found", message: "id: snapshot 's1' does not exist", details: { field: "id" } });
    expect(await refusal(k.get("s1 "))).toMatchObject({
      code: "invalid_input",
      details: { issues: [expect.objectContaining({ field: "id", rule: "invalid_format" })] },
    });
  });

  it("refuses malformed input to every operation, naming the field and the rule, writing nothing", async () => {
    await k.snapshot({ id: "s1" });
    const cases: Array<[() => Promise<unknown>, string, string]> = [
      [() => k.list({ limit: 0 }), "limit", "too_small"],
      [() => k.list({ limit: 501 }), "limit", "too_big"],
      [() => k.list({ cursor: -1 }), "cursor", "too_small"],
      [() => k.list({ team: "bad team" }), "team", "invalid_format"],
      [() => k.get("S1"), "id", "invalid_format"],
      [() => k.remove(""), "id", "invalid_format"],
      [() => k.rollback("s1/../x"), "id", "invalid_format"],
      [() => k.rollback("s1", "bad team"), "team", "invalid_format"],
      [() => k.replay({ id: 5 }), "id", "invalid_type"],
      [() => k.diff("s1", "Current"), "b", "invalid_format"],
    ];
    for (const [call, field, rule] of cases) {
      const err = await refusedWithoutWriting(hub, call);
      expect(err.code).toBe("invalid_input");
      expect(issues(err)[0]).toMatchObject({ field, rule });
      expect(err.message.startsWith(`${field}: `)).toBe(true);
    }
  });

  it("keeps teams apart", async () => {
    await k.create({ id: "c", team: "other" });
    await k.snapshot({ id: "s1" });
    expect((await k.get("s1")).state.contracts).toEqual([]);
    await k.snapshot({ id: "s1", team: "other" });
    expect((await k.list({ team: "other" })).items.map((s) => s.id)).toEqual(["s1"]);
  });
});
