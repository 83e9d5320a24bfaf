/**
 * Admission per hub (docs/hubs.md#admission): two Database connections with their own hub ids on one database, each
 * with a limit of 2. A hub counts, admits and yields only its own sessions; unowned queued sessions go to the first hub
 * with a free place, once; what a hub that stopped or was lost never started is queued again for any hub.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "../../db/sql.ts";
import { sessionKit } from "../../testing/session-kit.ts";
import type { TempHub } from "../../testing/temp-hub.ts";
import { twoHubs, type TwoHubs } from "../../testing/two-hubs.ts";
import { beat, stopHub, sweepLostHubs } from "../hubs/hubs.service.ts";
import { YIELDED, admissionPass } from "./admission.ts";
import { findSession } from "./sessions.repo.ts";

const LIMIT = 2;
const LOST_AFTER = 15_000;
let base: TempHub;
let a: TempHub;
let b: TempHub;

const kit = (h: TempHub) => sessionKit(h, undefined, { maxLive: LIMIT });
const row = async (name: string) => (await base.db.read((s) => findSession(s, name)))!;
const pass = (h: TempHub, yielding: Set<number> = new Set()) => admissionPass(h, LIMIT, yielding);
const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);
const queuedPayloads = () =>
  hubs
    .events()
    .filter((e) => e.type === "session.queued")
    .map((e) => e.payload);
/** Hub A stops answering, and hub B, beating on, declares it lost. */
const lose = async (h: TempHub) => {
  base.clock.advance(LOST_AFTER + 1000);
  await beat(h, "hub-b");
  expect(await sweepLostHubs(h, LOST_AFTER, LIMIT)).toEqual(["hub-a"]);
};

let hubs: TwoHubs;
beforeEach(async () => {
  hubs = await twoHubs();
  ({ base, a, b } = hubs);
});
afterEach(() => hubs.close());

describe("admission per hub", () => {
  it("a hub at its limit queues its own spawns and does not block another hub's", async () => {
    await kit(a).spawn({ name: "a1" });
    await kit(a).spawn({ name: "a2" });
    expect(await kit(a).spawn({ name: "a3" })).toMatchObject({ status: "queued", queuePosition: 1, hub: "hub-a" });
    expect(await kit(b).spawn({ name: "b1" })).toMatchObject({ status: "starting", queuePosition: null, hub: "hub-b" });
    expect(await kit(b).spawn({ name: "b2" })).toMatchObject({ status: "starting", hub: "hub-b" });
    // B is full too: its spawn waits first in B's queue, whatever A's holds.
    expect(await kit(b).spawn({ name: "b3" })).toMatchObject({ status: "queued", queuePosition: 1, hub: "hub-b" });
    expect(queuedPayloads()).toEqual([
      { name: "a3", position: 1, maxLive: LIMIT },
      { name: "b3", position: 1, maxLive: LIMIT },
    ]);
  });

  it("a hub never admits another live hub's queued session, and yields only its own idle sessions for its own queue", async () => {
    for (const name of ["a1", "a2", "a3"]) await kit(a).spawn({ name });
    await kit(a).launched("a1");
    await kit(a).launched("a2");
    await kit(b).spawn({ name: "b1" });
    await kit(b).launched("b1");

    // B has a free place and an idle session; A's waiting session is none of its business.
    expect(await pass(b)).toEqual({ admitted: [], yielding: [] });
    expect((await row("a3")).status).toBe("queued");

    const onA = await pass(a);
    expect(names(onA.admitted)).toEqual([]);
    expect(names(onA.yielding)).toEqual(["a1"]);
    await kit(a).exit("a1");
    expect(names((await pass(a)).admitted)).toEqual(["a3"]);
    expect(await row("a3")).toMatchObject({ status: "starting", hubId: "hub-a" });
  });

  it("an unowned queued session is admitted once, by the first hub with a free place, which claims it", async () => {
    // A process that runs no sessions (`teamhub mcp` over stdio) queues what it spawns while hubs are live.
    expect(await kit(base).spawn({ name: "u" })).toMatchObject({ status: "queued", queuePosition: 1, hub: null });
    // A hub's queue holds its own sessions and the unowned ones, in order: a newcomer on A waits behind u.
    await kit(a).spawn({ name: "a1" });
    expect((await row("a1")).status).toBe("queued");
    expect(await kit(a).status("a1")).toMatchObject({ queuePosition: 2 });

    expect(names((await pass(b)).admitted)).toEqual(["u"]);
    expect(names((await pass(a)).admitted)).toEqual(["a1"]);
    expect(await row("u")).toMatchObject({ status: "starting", hubId: "hub-b" });
    expect(await pass(a)).toEqual({ admitted: [], yielding: [] });
    expect(
      hubs
        .events()
        .filter((e) => e.type === "session.claimed")
        .map((e) => e.payload),
    ).toEqual([{ name: "u", hub: "hub-b" }]);
    expect(
      hubs
        .events()
        .filter((e) => e.type === "session.admitted")
        .map((e) => e.payload.name),
    ).toEqual(["u", "a1"]);
  });

  it("a hub lost before it launched the sessions it admitted queues them again, in their places, for a hub with a free place", async () => {
    for (const name of ["a1", "a2", "a3"]) await kit(a).spawn({ name });
    await kit(b).spawn({ name: "b1" });
    await kit(b).launched("b1");
    await lose(b);

    for (const name of ["a1", "a2", "a3"]) expect(await row(name)).toMatchObject({ status: "queued", hubId: null, pid: null });
    expect(queuedPayloads()).toEqual([
      { name: "a3", position: 1, maxLive: LIMIT },
      { name: "a1", position: 1, maxLive: LIMIT },
      { name: "a2", position: 2, maxLive: LIMIT },
    ]);
    // Hub B has one free place: the first of them, by the time it was given its place on hub A.
    expect(names((await pass(b)).admitted)).toEqual(["a1"]);
    expect(await row("a1")).toMatchObject({ status: "starting", hubId: "hub-b" });
    expect(await kit(b).status("a2")).toMatchObject({ status: "queued", queuePosition: 1 });
  });

  it("a session that yielded its place on a hub since lost or stopped, and got a message, is queued again for any hub", async () => {
    for (const stop of [(h: TempHub) => stopHub(h, "hub-a", LIMIT), lose]) {
      await kit(a).spawn({ name: "y" });
      await kit(a).launched("y");
      await kit(a).send({ name: "y", message: "late" });
      await a.db.write("test.yielded", "test", (tx) =>
        tx.run(sql`UPDATE "Session" SET "status" = 'stopped', "exitReason" = ${YIELDED}, "pid" = NULL WHERE "name" = 'y'`),
      );
      await stop(b);
      expect(await row("y")).toMatchObject({ status: "queued", hubId: null, exitReason: null });
      expect(names((await pass(b)).admitted)).toEqual(["y"]);
      expect(await row("y")).toMatchObject({ status: "starting", hubId: "hub-b" });
      await base.db.write("test.reset", "test", async (tx) => {
        await tx.run(sql`DELETE FROM "Interaction"`);
        await tx.run(sql`DELETE FROM "Session"`);
        await tx.run(sql`UPDATE "Hub" SET "status" = 'live', "heartbeatAt" = ${tx.now} WHERE "id" = 'hub-a'`);
      });
    }
  });

  it("a hub that stops cleanly releases its queue for another hub to admit", async () => {
    for (const name of ["a1", "a2", "a3"]) await kit(a).spawn({ name });
    await stopHub(a, "hub-a", LIMIT);
    expect(await row("a3")).toMatchObject({ status: "queued", hubId: null });
    expect(names((await pass(b)).admitted)).toEqual(["a3"]);
    expect(await row("a3")).toMatchObject({ status: "starting", hubId: "hub-b" });
  });
});
