/**
 * Hubs sharing one database (docs/hubs.md), as two Database connections with their own hub ids on one file: who runs a
 * session, a silent hub declared lost exactly once, and a lost hub's writes no longer counting.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sql } from "../../db/sql.ts";
import type { InteractionRow } from "../../db/rows.ts";
import { sessionKit } from "../../testing/session-kit.ts";
import type { TempHub } from "../../testing/temp-hub.ts";
import { twoHubs, type TwoHubs } from "../../testing/two-hubs.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { OPERATOR } from "../principal.ts";
import { recordExit } from "../sessions/runtime.ts";
import { findSession } from "../sessions/sessions.repo.ts";
import { wakeMember } from "../sessions/wake.ts";
import { claimSession } from "./claim.ts";
import { beat, listHubs, stopHub, sweepLostHubs } from "./hubs.service.ts";

const LOST_AFTER = 15_000;
/** The admission limit of these hubs, as sessionKit's default: none. */
const LIMIT = 0;
let base: TempHub;
let a: TempHub;
let b: TempHub;

const session = (h: TempHub, name: string) => h.db.read((sql) => findSession(sql, name));

let hubs: TwoHubs;
beforeEach(async () => {
  hubs = await twoHubs();
  ({ base, a, b } = hubs);
});
afterEach(() => hubs.close());

describe("who runs a session", () => {
  it("a session spawned through a hub is that hub's; an unclaimed one goes to the first hub that claims it, once", async () => {
    await sessionKit(a).spawn({ name: "on-a", prompt: "hi" });
    expect((await session(a, "on-a"))?.hubId).toBe("hub-a");

    // Spawned by a process that runs no sessions (`teamhub mcp` over stdio has no hub id).
    await sessionKit(base).spawn({ name: "unclaimed", prompt: "hi" });
    expect((await session(base, "unclaimed"))?.hubId).toBeNull();
    const claim = (h: TempHub) => h.db.write("test.claim", "supervisor", async (tx) => claimSession(tx, (await findSession(tx, "unclaimed"))!));
    // One process's connections share its thread, so the claims run one after another here; e2e/hubs.test.ts races processes.
    expect(await claim(b)).toBe(true);
    expect(await claim(a)).toBe(false);
    expect(await claim(b)).toBe(true);
    expect((await session(a, "unclaimed"))?.hubId).toBe("hub-b");
    expect(
      hubs
        .events()
        .filter((e) => e.type === "session.claimed")
        .map((e) => e.payload),
    ).toEqual([{ name: "unclaimed", hub: "hub-b" }]);
  });

  it("every hub sees a message for a member, and only the hub running it wakes it", async () => {
    const kit = sessionKit(a);
    await kit.teamSpawn({ team: "t", name: "dev" });
    await kit.launched("dev");
    const wake = { team: "t", member: "dev", reason: "turn" as const, text: "your turn" };
    expect(await wakeMember(b, wake, 0)).toBe(false);
    expect(await wakeMember(a, wake, 0)).toBe(true);
    const queued = await a.db.read((s) => s.all<Pick<InteractionRow, "prompt">>(sql`SELECT "prompt" FROM "Interaction" WHERE "status" = 'queued'`));
    expect(queued.map((q) => q.prompt)).toEqual(["your turn"]);
  });
});

describe("a hub whose heartbeat stopped", () => {
  it("is declared lost once however many hubs notice: its running sessions interrupted, its unstarted ones queued for any hub", async () => {
    const kit = sessionKit(a);
    await kit.spawn({ name: "running", prompt: "work" });
    await kit.launched("running");
    await kit.spawn({ name: "unstarted", prompt: "later" });

    // Within the limit nobody is lost.
    base.clock.advance(LOST_AFTER - 1000);
    expect(await beat(b, "hub-b")).toBe(true);
    expect(await sweepLostHubs(b, LOST_AFTER, LIMIT)).toEqual([]);

    base.clock.advance(2000);
    expect(await beat(b, "hub-b")).toBe(true);
    const swept = await Promise.all([sweepLostHubs(b, LOST_AFTER, LIMIT), sweepLostHubs(b, LOST_AFTER, LIMIT)]);
    expect(swept.flat()).toEqual(["hub-a"]);

    const lost = hubs.events().filter((e) => e.type === "hub.lost");
    expect(lost.map((e) => e.payload)).toEqual([expect.objectContaining({ id: "hub-a", lostAfterMs: LOST_AFTER, interrupted: ["running"] })]);
    expect(lost[0].teamId).toBeNull();
    const running = (await session(b, "running"))!;
    expect({ status: running.status, exitReason: running.exitReason, pid: running.pid }).toEqual({ status: "interrupted", exitReason: "hub_lost", pid: null });
    expect(await session(b, "unstarted")).toMatchObject({ status: "queued", hubId: null });

    const listed = await listHubs(b, OPERATOR);
    expect(listed.map((h) => [h.id, h.status, h.self])).toEqual([
      ["hub-a", "lost", false],
      ["hub-b", "live", true],
    ]);

    // The lost hub learns it at its next heartbeat, and what its old process still reports no longer counts.
    expect(await beat(a, "hub-a")).toBe(false);
    await sessionKit(b).resume("running");
    expect((await session(b, "running"))?.hubId).toBe("hub-b");
    const pk = (await session(b, "running"))!.pk;
    await recordExit(a, pk, { status: "failed", reason: "crashed", code: 1, signal: null, error: "gone", stderrTail: "" });
    expect((await session(b, "running"))?.status).toBe("starting");
  });

  it("a hub that stopped cleanly is not declared lost", async () => {
    await stopHub(a, "hub-a", LIMIT);
    base.clock.advance(LOST_AFTER * 2);
    await beat(b, "hub-b");
    expect(await sweepLostHubs(b, LOST_AFTER, LIMIT)).toEqual([]);
    expect((await listHubs(b, OPERATOR)).find((h) => h.id === "hub-a")?.status).toBe("stopped");
  });
});

describe("the hubs' health", () => {
  it("is the operator's to see", async () => {
    const err = await refusedWithoutWriting(a, () => listHubs(a, { name: "dev", kind: "member" }));
    expect(err.code).toBe("forbidden");
  });
});
