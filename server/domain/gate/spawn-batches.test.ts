import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../events/bus.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import type { DomainDeps } from "../deps.ts";
import { kit } from "../../testing/snapshot-kit.ts";
import { readGate } from "./gate-state.ts";
import { recordSpawnBatch } from "./spawn-batches.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const T0 = Date.parse("2030-01-01T00:00:00Z");
const spawn = (deps: DomainDeps, offsetMs: number) => deps.db.write("test.spawn", "operator", (tx) => recordSpawnBatch(tx, "default", new Date(T0 + offsetMs)));
const passGate = (deps: DomainDeps) => kit({ ...hub, db: deps.db }).gate({});

describe("spawn batches", () => {
  it("lets the first batch through, groups spawns at most 5 s apart, and needs a passing gate per later batch", async () => {
    expect(await spawn(hub, 0)).toEqual({ batch: 1, newBatch: true });
    expect(await spawn(hub, 5000)).toEqual({ batch: 1, newBatch: false });
    expect(await spawn(hub, 9000)).toEqual({ batch: 1, newBatch: false });

    const refused = await refusedWithoutWriting(hub, () => spawn(hub, 14_001));
    const example = `phase_gate({team: "default", phase_completing: "Phase 1", phase_starting: "Phase 2", expected_artifacts: ["<artifact the last phase produced>"]})`;
    expect(refused).toMatchObject({
      code: "precondition_failed",
      message: `phase gate required: team 'default' has started 1 spawn batch(es) and no phase_gate has passed since batch 1 began. Verify the previous phase before spawning more workers, for example: ${example}`,
      details: { team: "default", spawnBatchCount: 1, gateCount: 0, example },
    });

    await passGate(hub);
    expect(await spawn(hub, 20_000)).toEqual({ batch: 2, newBatch: true });
    expect(await spawn(hub, 21_000)).toEqual({ batch: 2, newBatch: false });
    expect((await refusedWithoutWriting(hub, () => spawn(hub, 60_000))).details).toMatchObject({ spawnBatchCount: 2, gateCount: 1 });
    expect(await hub.db.read((sql) => readGate(sql, "default"))).toMatchObject({ gateCount: 1, spawnBatchCount: 2, lastSpawnAt: new Date(T0 + 21_000) });
  });

  it("does not let gates be banked for later batches", async () => {
    await spawn(hub, 0);
    await passGate(hub);
    await passGate(hub);
    expect(await spawn(hub, 10_000)).toEqual({ batch: 2, newBatch: true });
    expect((await refusedWithoutWriting(hub, () => spawn(hub, 20_000))).details).toMatchObject({ spawnBatchCount: 2, gateCount: 2 });
  });

  it("keeps its counters across a restart", async () => {
    await spawn(hub, 0);
    await hub.db.close();
    const bus = new EventBus();
    const reopened = { db: hub.connect(bus), bus };
    try {
      await expect(spawn(reopened, 10_000)).rejects.toMatchObject({ code: "precondition_failed" });
      await passGate(reopened);
      expect(await spawn(reopened, 10_000)).toEqual({ batch: 2, newBatch: true });
    } finally {
      await reopened.db.close();
    }
  });
});
