/**
 * Write scopes and the event log's commit order on a real PostgreSQL server (docs/postgres.md#writes), with several
 * connections to one database as several hub processes have. Skipped without TEST_DATABASE_URL.
 */
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EventBus } from "../events/bus.ts";
import type { HubEvent } from "../events/types.ts";
import { POSTGRES_URL, tempHub, type TempHub } from "../testing/temp-hub.ts";
import type { Database } from "./database.ts";
import { EVENT_COLUMNS, type EventValues } from "./event-append.ts";
import { WRITE_LOCK_KEY } from "./postgres.ts";
import type { EventRow, TeamRow } from "./rows.ts";
import { sql } from "./sql.ts";

let hub: TempHub;
let others: Database[];
beforeEach(async () => {
  hub = await tempHub();
  others = [];
});
afterEach(async () => {
  for (const db of others) await db.close();
  await hub.close();
});

/** Another hub process's connection to the test database, with the events it publishes. */
function process2(): { db: Database; events: HubEvent[] } {
  const bus = new EventBus();
  const events: HubEvent[] = [];
  bus.subscribe((e) => void events.push(...e));
  const db = hub.connect(bus);
  others.push(db);
  return { db, events };
}

/** A promise plus the function that settles it: holds a transaction open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

/** How many advisory lock requests wait right now: a write blocked on a scope shows up here. */
const waiting = () => waitingFor("advisory");

/** How many requests for locks of this type (pg_locks.locktype) wait right now. */
const waitingFor = async (locktype: "advisory" | "transactionid") =>
  (await hub.db.read((s) => s.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM pg_locks WHERE locktype = ${locktype} AND NOT granted`)))!.n;

/** A write of `team` (or of the whole database) that creates the team, emits one event and waits for `hold` first. */
const teamWrite = (db: Database, team: string, scope: string | undefined, hold?: Promise<void>) =>
  db.write(
    "test.scope",
    "tester",
    async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES (${team},${tx.now},'{}')`);
      await tx.emit({ teamId: team, type: "team.created", subject: `team:${team}`, payload: { id: team } });
      await hold;
      return team;
    },
    { team: scope },
  );

/** Whether some write holds a team's lock (an (int, int) advisory key). */
const teamLockHeld = async () =>
  (await hub.db.read((s) => s.get(sql`SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2`))) !== undefined;

const ids = (events: HubEvent[]) => Object.fromEntries(events.map((e) => [e.subject, e.id]));

describe.skipIf(!POSTGRES_URL)("writes on PostgreSQL", () => {
  it("run a team's write beside another team's, while a write of the whole database waits for both", async () => {
    const a = process2();
    const b = process2();
    const c = process2();
    const held = gate();
    const writeA = teamWrite(a.db, "a", "a", held.opened);
    await vi.waitFor(async () => expect(await teamLockHeld()).toBe(true));
    // Team b commits while team a's write is open.
    await teamWrite(b.db, "b", "b");
    const writeC = teamWrite(c.db, "c", undefined);
    await vi.waitFor(async () => expect(await waiting()).toBe(1));
    let cDone = false;
    void writeC.then(() => (cDone = true));
    expect(cDone).toBe(false);
    held.open();
    expect(await Promise.all([writeA, writeC])).toEqual(["a", "c"]);
    // Commit order is log order: b, then a, then c.
    const order = { ...ids(a.events), ...ids(b.events), ...ids(c.events) };
    expect(order["team:b"]).toBeLessThan(order["team:a"]);
    expect(order["team:a"]).toBeLessThan(order["team:c"]);
  });

  it("queue two writes of one team from different processes", async () => {
    const a = process2();
    const b = process2();
    const held = gate();
    const first = teamWrite(a.db, "t", "t", held.opened);
    await vi.waitFor(async () => expect(await teamLockHeld()).toBe(true));
    const second = b.db.write("test.second", "tester", async (tx) => (await tx.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM "Team"`))!.n, { team: "t" });
    await vi.waitFor(async () => expect(await waiting()).toBe(1));
    held.open();
    await first;
    // The second write started after the first committed: it sees its team row.
    expect(await second).toBe(1);
  });

  it("draw event ids in commit order: a transaction appending events waits for one that has drawn its ids and not committed", async () => {
    const a = process2().db;
    const b = process2().db;
    const row = (team: string): EventValues => [null, "team.created", `team:${team}`, JSON.stringify({ id: team }), "tester", null, 0, new Date()];
    const append = (db: Database, team: string, events: EventValues[]) =>
      db.adapter.transaction(async () => ({ value: undefined, events }), { rollback: false, team });
    // A's ids are drawn inside the one message that appends them and commits, so to catch it in between, a third
    // connection holds uncommitted the row with the id A draws next: A's insert waits on it, its ids drawn, the events
    // lock held, not committed.
    const blocker = new pg.Client({ connectionString: (hub.where as { url: string }).url });
    await blocker.connect();
    try {
      await blocker.query("BEGIN");
      const { seq } = (await blocker.query<{ seq: string }>(`SELECT pg_get_serial_sequence('"Event"', 'id') AS seq`)).rows[0];
      const { next } = (await blocker.query<{ next: number }>(`SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END AS next FROM ${seq}`))
        .rows[0];
      await blocker.query(`INSERT INTO "Event" ("id", ${EVENT_COLUMNS}) VALUES ($1, NULL, 'team.created', 'team:z', '{}', 'tester', NULL, 0, now())`, [next]);
      const first = append(a, "x", [row("x"), row("x")]);
      await vi.waitFor(async () => expect(await waitingFor("transactionid")).toBe(1));
      const second = append(b, "y", [row("y")]);
      await vi.waitFor(async () => expect(await waitingFor("advisory")).toBe(1));
      await blocker.query("ROLLBACK");
      const [aIds, bIds] = (await Promise.all([first, second])).map((r) => r.eventIds);
      expect(aIds).toEqual([Number(next), Number(next) + 1]);
      expect(bIds[0]).toBeGreaterThan(Math.max(...aIds));
    } finally {
      await blocker.end();
    }
  });

  it("never let a reader following the log by id skip an event, with three processes writing three teams at once", async () => {
    const writers = [process2().db, process2().db, process2().db];
    const seen: number[] = [];
    let cursor = 0;
    const readOn = async () => {
      const rows = await hub.db.read((s) => s.all<Pick<EventRow, "id">>(sql`SELECT "id" FROM "Event" WHERE "id" > ${cursor} ORDER BY "id"`));
      for (const r of rows) seen.push(r.id);
      if (rows.length) cursor = rows[rows.length - 1].id;
    };
    let writing = true;
    const follow = async () => {
      while (writing) await readOn();
    };
    const reader = follow();
    await Promise.all(
      writers.map(async (db, w) => {
        for (let i = 0; i < 40; i++) {
          await db.write(
            "test.many",
            "tester",
            async (tx) => {
              if (i === 0) await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES (${`w${w}`},${tx.now},'{}')`);
              await tx.emit({ teamId: `w${w}`, type: "artifact_type.registered", subject: `type:${i}`, payload: { name: `${w}-${i}` } });
            },
            { team: `w${w}` },
          );
        }
      }),
    );
    writing = false;
    await reader;
    // Begun after every write committed: whatever the reader skipped stays skipped.
    await readOn();
    const all = (await hub.db.read((s) => s.all<Pick<EventRow, "id">>(sql`SELECT "id" FROM "Event" ORDER BY "id"`))).map((r) => r.id);
    expect(all).toHaveLength(120);
    expect(seen).toEqual(all);
  });
});

describe.skipIf(!POSTGRES_URL)("round trips and failures on PostgreSQL", () => {
  it("send a transaction's BEGIN and its first statement without waiting between them, for writes and reads", async () => {
    const p = process2();
    const calls: Array<{ text: string; earlierAnswered: boolean }> = [];
    const answered: boolean[] = [];
    const query = pg.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => Promise<unknown>;
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const config = args[0] as string | { text: string };
      calls.push({ text: typeof config === "string" ? config : config.text, earlierAnswered: answered.every(Boolean) });
      const i = answered.push(false) - 1;
      const sent = query.apply(this, args);
      void sent.then(
        () => (answered[i] = true),
        () => (answered[i] = true),
      );
      return sent;
    } as never);
    try {
      await teamWrite(p.db, "t", "t");
      await p.db.read((s) => s.get(sql`SELECT COUNT(*) AS n FROM "Team"`));
    } finally {
      spy.mockRestore();
    }
    expect(calls.map((c) => c.text.split(" ")[0])).toEqual(["BEGIN;", "INSERT", "SELECT", "BEGIN", "SELECT", "COMMIT"]);
    // The first statement of each transaction went out while its BEGIN was unanswered; the ones after waited for answers.
    expect(calls.map((c) => c.earlierAnswered)).toEqual([true, false, true, true, false, true]);
  });

  it("report a write that cannot take its lock as such, write nothing, and leave its connection fit for the next write", async () => {
    const url = (hub.where as { url: string }).url;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // Connections opened from now on give up on a lock after 100 ms: the write's locks are its first statements.
      await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" SET lock_timeout = '100ms'`);
      const p = process2();
      await admin.query(`SELECT pg_advisory_lock(${WRITE_LOCK_KEY})`);
      const err = await teamWrite(p.db, "t", "t").catch((e: Error) => e);
      expect(String(err)).toContain("lock timeout");
      expect(await hub.db.read((s) => s.all(sql`SELECT * FROM "Team"`))).toEqual([]);
      expect(await hub.db.read((s) => s.all(sql`SELECT * FROM "Event"`))).toEqual([]);
      await admin.query(`SELECT pg_advisory_unlock(${WRITE_LOCK_KEY})`);
      // The pool lends the same connection again: its failed transaction was rolled back.
      expect(await teamWrite(p.db, "u", "u")).toBe("u");
      expect(await hub.db.read((s) => s.all<Pick<TeamRow, "id">>(sql`SELECT "id" FROM "Team"`))).toEqual([{ id: "u" }]);
    } finally {
      await admin.query(`ALTER DATABASE "${new URL(url).pathname.slice(1)}" RESET lock_timeout`);
      await admin.end();
    }
  });
});

describe("team-scoped writes", () => {
  it("refuse an event of another team and roll the write back", async () => {
    const err = await hub.db
      .write(
        "test.cross",
        "tester",
        async (tx) => {
          await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('mine',${tx.now},'{}')`);
          await tx.emit({ teamId: "theirs", type: "team.created", subject: "team:theirs", payload: { id: "theirs" } });
        },
        { team: "mine" },
      )
      .catch((e: Error) => e);
    expect(String(err)).toContain("write 'test.cross' of team 'mine' emitted 'team.created' of team 'theirs'");
    expect(await hub.db.read((s) => s.all(sql`SELECT * FROM "Team"`))).toEqual([]);
  });
});
