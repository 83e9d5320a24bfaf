import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "../../db/sql.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { admissionPass, defaultMaxLive, YIELDED } from "./admission.ts";
import { recoverSessions } from "./recovery.ts";
import { findSession } from "./sessions.repo.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub, undefined, { maxLive: 2 });
});
afterEach(() => hub.close());

const row = async (name: string) => (await hub.db.read((s) => findSession(s, name)))!;
const pass = (yielding: Set<number> = new Set()) => admissionPass(hub, 2, yielding);
const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);

describe("admission", () => {
  it("the default is min(2 × cores, memory / 400 MB), at least 2", () => {
    expect(defaultMaxLive(2, 24 * 1024 ** 3)).toBe(4);
    expect(defaultMaxLive(16, 2 * 1024 ** 3)).toBe(5);
    expect(defaultMaxLive(1, 100 * 1024 ** 2)).toBe(2);
  });

  it("queues spawns beyond the limit with their position, in one write with a session.queued event", async () => {
    await k.spawn({ name: "a", prompt: "1" });
    await k.spawn({ name: "b", prompt: "1" });
    const c = await k.spawn({ name: "c", prompt: "1" });
    const [d, e] = await k.batch([{ name: "d" }, { name: "e" }]);
    expect(c).toMatchObject({ status: "queued", queuePosition: 1, queued: 1 });
    expect(c.queuedAt).toBeInstanceOf(Date);
    expect([d.queuePosition, e.queuePosition]).toEqual([2, 3]);
    expect(hub.events.filter((ev) => ev.type === "session.queued").map((ev) => ev.payload)).toEqual([
      { name: "c", position: 1, maxLive: 2 },
      { name: "d", position: 2, maxLive: 2 },
      { name: "e", position: 3, maxLive: 2 },
    ]);
    expect(await k.status("a")).toMatchObject({ status: "starting", queuePosition: null });
  });

  it("admits in order as places free, and a newcomer waits behind the queue", async () => {
    for (const name of ["a", "b", "c", "d"]) await k.spawn({ name });
    expect(names((await pass()).admitted)).toEqual([]);
    await k.exit("a");
    const first = await pass();
    expect(names(first.admitted)).toEqual(["c"]);
    expect((await row("c")).status).toBe("starting");
    expect(hub.events.at(-1)).toMatchObject({ type: "session.admitted", payload: { name: "c" } });
    expect(await k.status("d")).toMatchObject({ status: "queued", queuePosition: 1 });
    // One place is free only while the pass has not run; a resume must still wait its turn behind d.
    await k.exit("b");
    expect(await k.resume("a")).toMatchObject({ status: "queued", queuePosition: 2 });
    expect(names((await pass()).admitted)).toEqual(["d"]);
  });

  it("asks the longest-idle session with nothing pending to yield while others wait, once", async () => {
    await k.spawn({ name: "old" });
    await k.spawn({ name: "busy", prompt: "work" });
    await k.launched("old");
    await k.launched("busy");
    await k.startTurn("busy");
    await k.spawn({ name: "waiting" });
    const first = await pass();
    expect(names(first.yielding)).toEqual(["old"]);
    expect(hub.events.at(-1)).toMatchObject({ type: "session.stop_requested", payload: { name: "old", reason: YIELDED } });
    expect((await pass(new Set([(await row("old")).pk]))).yielding).toEqual([]);
  });

  it("a yielded session that got a message while stopping queues again", async () => {
    await k.spawn({ name: "y" });
    await k.launched("y");
    await k.send({ name: "y", message: "late" });
    await hub.db.write("test.exit", "test", (tx) =>
      tx.run(sql`UPDATE "Session" SET "status" = 'stopped', "exitReason" = ${YIELDED}, "pid" = NULL WHERE "name" = 'y'`),
    );
    await pass();
    expect(await k.status("y")).toMatchObject({ status: "starting", queued: 1, exitReason: null });
  });

  it("stop and kill end a queued session without a launch, answering whoever waits on its turn; pause is refused", async () => {
    for (const name of ["a", "b", "c", "d"]) await k.spawn({ name });
    const waiting = k.delegate({ name: "e", task: "never runs" });
    await expect.poll(async () => (await row("e")).status).toBe("queued");
    await k.kill("e");
    expect(await waiting).toMatchObject({ status: "failed", name: "e" });
    await expect(k.pause("c")).rejects.toThrow(/queued; pause needs/);
    expect(await k.stop("c", true)).toMatchObject({ status: "stopped", exitReason: "stopped", pid: null });
    expect(await k.kill("d", true)).toMatchObject({ status: "killed", exitReason: "killed" });
    expect(hub.events.filter((e) => e.type === "session.started")).toEqual([]);
  });

  it("keeps the queue across a restart", async () => {
    for (const name of ["a", "b", "c"]) await k.spawn({ name, prompt: "1" });
    await k.launched("a");
    const recovered = await recoverSessions(hub);
    expect(names(recovered.interrupted)).toEqual(["a"]);
    expect(names(recovered.toLaunch)).toEqual(["b"]);
    expect(await k.status("c")).toMatchObject({ status: "queued", queuePosition: 1, queued: 1 });
    expect(names((await pass()).admitted)).toEqual(["c"]);
  });
});
