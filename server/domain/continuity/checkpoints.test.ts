import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { continuityKit, member, type ContinuityKit } from "../../testing/continuity-kit.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sql } from "../../db/sql.ts";
import type { CheckpointRow } from "../../db/rows.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { KEPT_CHECKPOINTS } from "./checkpoints.service.ts";

let hub: TempHub;
let k: Kit;
let c: ContinuityKit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
  c = continuityKit(hub);
});
afterEach(() => hub.close());

const dev = member("api-dev");
const maxEventId = async () => (await hub.db.read((s) => s.get<{ id: number }>(sql`SELECT MAX("id") AS "id" FROM "Event"`)))!.id;

describe("recording checkpoints", () => {
  it("stores the caller's working state and the event log position, without an event of its own", async () => {
    await k.publish({ id: "spec" });
    const before = hub.events.length;
    const cp = await c.checkpoint(dev, {
      kind: "pre_compact",
      claudeSessionId: "0b6f7a52-3c1e-4c8e-9a51-6f1d2e3c4b5a",
      state: { cwd: "/home/me/project", head: "a1b2c3d4e5f6", summary: "Half-way through the login route", changedFiles: ["src/login.ts"] },
    });
    expect(cp).toEqual({
      id: 1,
      team: "default",
      principal: "api-dev",
      claudeSessionId: "0b6f7a52-3c1e-4c8e-9a51-6f1d2e3c4b5a",
      kind: "pre_compact",
      state: { cwd: "/home/me/project", head: "a1b2c3d4e5f6", summary: "Half-way through the login route", changedFiles: ["src/login.ts"] },
      lastEventId: await maxEventId(),
      at: expect.any(Date),
    });
    expect(hub.events.length).toBe(before);
  });

  it("finds that Claude session's latest checkpoint first, else the principal's latest, never someone else's", async () => {
    await c.checkpoint(dev, { claudeSessionId: "session-a", kind: "stop" });
    await c.checkpoint(dev, { claudeSessionId: "session-b", kind: "session_end" });
    await c.checkpoint(member("qa-dev"), { claudeSessionId: "session-a", kind: "stop" });
    expect(await c.latest(dev, { claudeSessionId: "session-a" })).toMatchObject({ id: 1, claudeSessionId: "session-a" });
    expect(await c.latest(dev, { claudeSessionId: "session-new" })).toMatchObject({ id: 2, claudeSessionId: "session-b" });
    expect(await c.latest(dev)).toMatchObject({ id: 2 });
    expect(await c.latest(member("nobody"))).toBeNull();
    expect(await c.latest(dev, { team: "other" })).toBeNull();
  });

  it("lets an operator look up a member's latest checkpoint, and no one else", async () => {
    await c.checkpoint(dev, { kind: "pre_compact" });
    expect(await c.latest(OPERATOR, { member: "api-dev" })).toMatchObject({ principal: "api-dev", kind: "pre_compact" });
    expect(await c.latest(dev, { member: "api-dev" })).toMatchObject({ principal: "api-dev" });
    const err = await refusedWithoutWriting(hub, () => c.latest(member("qa-dev"), { member: "api-dev" }));
    expect(err).toMatchObject({ code: "forbidden", details: { rule: "owner", operation: "continuity.read" } });
    expect(err.message).toBe(
      "'qa-dev' (member) may not read the checkpoints or briefing of 'api-dev': only the member itself, a lead of team 'default' or the operator may",
    );
  });

  it(`keeps the latest ${KEPT_CHECKPOINTS} per principal`, async () => {
    for (let i = 0; i < KEPT_CHECKPOINTS + 5; i++) await c.checkpoint(dev);
    await c.checkpoint(member("qa-dev"));
    const rows = await hub.db.read((s) =>
      s.all<Pick<CheckpointRow, "principal"> & { n: number; first: number }>(
        sql`SELECT "principal", COUNT(*) AS "n", MIN("id") AS "first" FROM "Checkpoint" GROUP BY "principal" ORDER BY "principal"`,
      ),
    );
    expect(rows).toEqual([
      { principal: "api-dev", n: KEPT_CHECKPOINTS, first: 6 },
      { principal: "qa-dev", n: 1, first: KEPT_CHECKPOINTS + 6 },
    ]);
  });

  it("refuses bad kinds, session ids and state, and writes nothing", async () => {
    for (const [input, field, rule] of [
      [{ kind: "nap" }, "kind", "invalid_value"],
      [{ claudeSessionId: "has space" }, "claudeSessionId", "invalid_format"],
      [{ state: { head: "not-a-sha" } }, "state.head", "invalid_format"],
      [{ state: { mood: "good" } }, "state", "unrecognized_keys"],
      [{ state: { summary: "s".repeat(4001) } }, "state.summary", "too_big"],
      [{ state: { changedFiles: Array.from({ length: 1001 }, (_, i) => `f${i}`) } }, "state.changedFiles", "too_big"],
      [{ state: "dirty" }, "state", "invalid_type"],
    ] as const) {
      const err = await refusedWithoutWriting(hub, () => c.checkpoint(dev, input));
      expect(issues(err)[0], JSON.stringify(input).slice(0, 60)).toMatchObject({ field, rule });
    }
  });
});
