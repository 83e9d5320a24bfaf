/**
 * Admission per hub (docs/hubs.md#admission): two Database connections with their own hub ids on one database, each
 * with a limit of 2. A hub counts, admits and yields only its own sessions; unowned queued sessions go to the first hub
 * with a free place, once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionKit } from "../../testing/session-kit.ts";
import type { TempHub } from "../../testing/temp-hub.ts";
import { twoHubs, type TwoHubs } from "../../testing/two-hubs.ts";
import { stopHub } from "../hubs/hubs.service.ts";
import { admissionPass } from "./admission.ts";
import { findSession } from "./sessions.repo.ts";

const LIMIT = 2;
let base: TempHub;
let a: TempHub;
let b: TempHub;

const kit = (h: TempHub) => sessionKit(h, undefined, { maxLive: LIMIT });
const row = async (name: string) => (await base.db.read((sql) => findSession(sql, name)))!;
const pass = (h: TempHub, yielding: Set<number> = new Set()) => admissionPass(h, LIMIT, yielding);
const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);
const allEvents = () => [...a.events, ...b.events, ...base.events].sort((x, y) => x.id - y.id);

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
    expect(
      allEvents()
        .filter((e) => e.type === "session.queued")
        .map((e) => e.payload),
    ).toEqual([
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
      allEvents()
        .filter((e) => e.type === "session.claimed")
        .map((e) => e.payload),
    ).toEqual([{ name: "u", hub: "hub-b" }]);
    expect(
      allEvents()
        .filter((e) => e.type === "session.admitted")
        .map((e) => e.payload.name),
    ).toEqual(["u", "a1"]);
  });

  it("a hub that stops cleanly releases its queue for another hub to admit", async () => {
    for (const name of ["a1", "a2", "a3"]) await kit(a).spawn({ name });
    await stopHub(a, "hub-a");
    expect(await row("a3")).toMatchObject({ status: "queued", hubId: null });
    expect(names((await pass(b)).admitted)).toEqual(["a3"]);
    expect(await row("a3")).toMatchObject({ status: "starting", hubId: "hub-b" });
  });
});
