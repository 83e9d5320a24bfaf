import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaPg } from "@prisma/adapter-pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { JsonObject, JsonValue } from "../../lib/api/common.ts";
import { CreateContractInput } from "../../lib/api/contracts.ts";
import { EVENTS } from "../../lib/api/events.ts";
import { ListEventsInput } from "../../lib/api/teams.ts";
import { publishArtifact } from "../domain/artifacts/artifacts.service.ts";
import { createContract } from "../domain/contracts/contracts.service.ts";
import { eventsAfter, lastEventId, listEvents } from "../domain/events/events.service.ts";
import { OPERATOR } from "../domain/principal.ts";
import { archiveTeam } from "../domain/teams/teams.service.ts";
import { DomainError } from "../errors.ts";
import type { HubEvent, PayloadOf } from "../events/types.ts";
import { PrismaClient } from "../generated/prisma/client.ts";
import { PrismaClient as PgPrismaClient } from "../generated/prisma-pg/client.ts";
import { snapshotTables, tempHub, type TempHub } from "../testing/temp-hub.ts";
import type { DatabaseLocation } from "./open.ts";
import { fromSqlDate } from "./connection.ts";
import { jsonColumn, type ArtifactRow, type ArtifactVersionRow, type EventRow, type TeamRow } from "./rows.ts";
import { toSqlDate } from "./sqlite.ts";
import { sql } from "./sql.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const publish = (input: Record<string, unknown>) => publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ type: "custom", data: {}, ...input }));

/** A write that creates team `id` and emits one event per label (`artifact_type.registered`, its name the label). */
const writeTeam = (id: string, labels: string[] = []) =>
  hub.db.write("test.team", "tester", async (tx) => {
    await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES (${id},${tx.now},'{}')`);
    for (const label of labels) await tx.emit({ teamId: id, type: "artifact_type.registered", subject: `type:${label}`, payload: { name: label } });
    return id;
  });

/** The label a test event carries (the name of the type it registers). */
const labelOf = (e: HubEvent) => (e.type === "artifact_type.registered" ? e.payload.name : null);
const nameOf = (payload: string) => jsonColumn(EVENTS["artifact_type.registered"], payload).name;

const teamIds = () => hub.db.read(async (s) => (await s.all<{ id: string }>(sql`SELECT "id" FROM "Team" ORDER BY "id"`)).map((t) => t.id));

/** A promise plus the function that settles it: lets a test hold a transaction open. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

describe("transactions", () => {
  it("roll back everything when the write throws, and publish nothing", async () => {
    const failure = new Error("boom");
    await expect(
      hub.db.write("test.fail", "tester", async (tx) => {
        await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('doomed',${tx.now},'{}')`);
        await tx.emit({ teamId: "doomed", type: "team.created", subject: "team:doomed", payload: { id: "doomed" } });
        tx.afterCommit(() => {
          throw new Error("an after-commit step of a rolled-back write must not run");
        });
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(hub.events).toEqual([]);
    expect((await snapshotTables(hub)).Team).toEqual([]);
    expect((await snapshotTables(hub)).Event).toEqual([]);
    // The lock was released: the next write goes through.
    expect(await writeTeam("next")).toBe("next");
  });

  it("refuse a payload that does not fit the event catalog, rolling the whole write back", async () => {
    const wrong = hub.db.write("test.wrong", "tester", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('wrong',${tx.now},'{}')`);
      // A programming error the type checker would refuse; at run time the catalog refuses it too.
      const wrongPayload: unknown = { id: "wrong", from: "pending", to: "started" };
      await tx.emit({
        teamId: "wrong",
        type: "contract.status_changed",
        subject: "contract:wrong",
        payload: wrongPayload as PayloadOf<"contract.status_changed">,
      });
    });
    await expect(wrong).rejects.toThrow(/event 'contract\.status_changed': the payload does not fit the catalog[\s\S]*to/);
    expect(hub.events).toEqual([]);
    expect((await snapshotTables(hub)).Team).toEqual([]);
    expect((await snapshotTables(hub)).Event).toEqual([]);
  });

  it("run a dry run's work, summary steps included, and keep none of it", async () => {
    const before = await snapshotTables(hub);
    const seen = await hub.db.write(
      "test.preview",
      "tester",
      async (tx) => {
        await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('preview',${tx.now},'{}')`);
        tx.beforeCommit(
          async () => void (await tx.emit({ teamId: "preview", type: "artifact_type.registered", subject: "type:summary", payload: { name: "summary" } })),
        );
        tx.afterCommit(() => {
          throw new Error("an after-commit step of a dry run must not run");
        });
        return tx.dryRun;
      },
      { dryRun: true },
    );
    expect(seen).toBe(true);
    expect(hub.events).toEqual([]);
    expect(await snapshotTables(hub)).toEqual(before);
  });

  it("run summary steps after the command, before commit, including ones they register", async () => {
    const order: string[] = [];
    await hub.db.write("test.summary", "tester", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('sum',${tx.now},'{}')`);
      tx.beforeCommit(async () => {
        order.push("first");
        tx.beforeCommit(async () => void order.push("registered by the first"));
      });
      tx.beforeCommit(async () => {
        order.push("second");
        await tx.emit({ teamId: "sum", type: "artifact_type.registered", subject: "type:summary", payload: { name: "summary" } });
      });
      order.push("command");
    });
    expect(order).toEqual(["command", "first", "second", "registered by the first"]);
    expect(hub.events.map(labelOf)).toEqual(["summary"]);
  });

  it("roll back a domain command refused half-way through", async () => {
    await publish({ id: "spec" });
    const before = await snapshotTables(hub);
    // ensureTeam has already inserted the team when the type check refuses.
    const err = await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ team: "fresh", id: "x", type: "no-such-type", data: {} })).catch((e) => e);
    expect(DomainError.is(err) && err.code).toBe("invalid_input");
    expect(await snapshotTables(hub)).toEqual(before);
  });

  it("publish events only after commit, in order, with their log ids", async () => {
    const seenAtPublish: Array<{ events: HubEvent[]; teams: Promise<string[]> }> = [];
    hub.bus.subscribe((events) => {
      // A read begun at publish time: a subscriber must be able to read what the events describe.
      seenAtPublish.push({ events: [...events], teams: teamIds() });
    });
    await hub.db.write("test.order", "tester", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('t',${tx.now},'{}')`);
      for (const label of ["a", "b", "c"]) await tx.emit({ teamId: "t", type: "artifact_type.registered", subject: "type:x", payload: { name: label } });
      expect(tx.emitted.map(labelOf)).toEqual(["a", "b", "c"]);
      expect(tx.emitted[0]).toMatchObject({ principal: "tester", depth: 0, causedBy: null, payload: { name: "a" } });
      // Appended with the transaction's last statements: nothing of them is in the log yet, inside it either.
      expect(await tx.get(sql`SELECT 1 FROM "Event"`)).toBeUndefined();
      expect(seenAtPublish).toEqual([]);
      expect(hub.events).toEqual([]);
    });
    expect(seenAtPublish).toHaveLength(1);
    expect(await seenAtPublish[0].teams).toEqual(["t"]);
    const published = seenAtPublish[0].events;
    expect(published.map(labelOf)).toEqual(["a", "b", "c"]);
    const logged = (await snapshotTables(hub)).Event as Array<Pick<EventRow, "id" | "payload">>;
    expect(published.map((e) => e.id)).toEqual(logged.map((e) => e.id));
    expect(logged.map((e) => nameOf(e.payload))).toEqual(["a", "b", "c"]);
  });

  it("append more events than one statement takes, numbered in the order they were emitted", async () => {
    const labels = Array.from({ length: 2500 }, (_, i) => `e${i}`);
    await writeTeam("many", labels);
    expect(hub.events.map(labelOf)).toEqual(labels);
    const logged = (await snapshotTables(hub)).Event as Array<Pick<EventRow, "id" | "payload">>;
    expect(logged.map((e) => e.id)).toEqual(hub.events.map((e) => e.id));
    expect(logged.map((e) => nameOf(e.payload))).toEqual(labels);
    const ids = hub.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("store an event's text exactly, whatever it holds (on PostgreSQL the last events are written into the statement's text)", async () => {
    const hostile = [`'); DELETE FROM "Event"; --`, `back\\slash \\' E'\\x00'`, `line\nbreak\ttab`, `$1 $$ ? ?? :name`, "ünïcødé ✓ 𝄞", `"quoted" ''twice''`];
    await writeTeam("verbatim", hostile);
    await writeTeam("verbatim-2", ["after"]);
    const logged = (await snapshotTables(hub)).Event as Array<Pick<EventRow, "subject" | "payload">>;
    expect(logged.map((e) => [e.subject, nameOf(e.payload)])).toEqual([...hostile, "after"].map((label) => [`type:${label}`, label]));
  });

  it("publish the events of consecutive writes in commit order", async () => {
    await Promise.all(["w1", "w2", "w3"].map((id) => writeTeam(id, [`${id}-x`, `${id}-y`])));
    const labels = hub.events.map(labelOf);
    expect(labels).toEqual(["w1-x", "w1-y", "w2-x", "w2-y", "w3-x", "w3-y"]);
    const ids = hub.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it("keep the log in commit order for catch-up after a cursor, per team or across teams", async () => {
    await writeTeam("a", ["a1"]);
    await writeTeam("b", ["b1"]);
    await hub.db.write("test.more", "tester", (tx) => tx.emit({ teamId: "a", type: "artifact_type.registered", subject: "type:a2", payload: { name: "a2" } }));
    const labels = (events: HubEvent[]) => events.map(labelOf);
    expect(await lastEventId(hub)).toBe(hub.events.at(-1)!.id);
    expect(labels(await eventsAfter(hub, { teams: [], after: 0, limit: 10 }))).toEqual(["a1", "b1", "a2"]);
    expect(labels(await eventsAfter(hub, { teams: ["a"], after: 0, limit: 10 }))).toEqual(["a1", "a2"]);
    expect(labels(await eventsAfter(hub, { teams: ["a", "b"], after: hub.events[0].id, limit: 1 }))).toEqual(["b1"]);
    const newest = await listEvents(hub, OPERATOR, ListEventsInput.parse({ team: "a" }));
    expect(labels(newest.events)).toEqual(["a2", "a1"]);
    expect(newest.lastId).toBe(hub.events[2].id);
    expect(await listEvents(hub, OPERATOR, ListEventsInput.parse({ team: "a", after: hub.events[2].id }))).toEqual({ events: [], lastId: null });
  });

  it("record the cause and depth of events a cascade writes", async () => {
    await writeTeam("t", ["origin"]);
    const origin = hub.events[0];
    await hub.db.write(
      "test.caused",
      "pipeline",
      (tx) => tx.emit({ teamId: "t", type: "artifact_type.registered", subject: "type:reaction", payload: { name: "reaction" } }),
      {
        cause: { eventId: origin.id, depth: origin.depth },
      },
    );
    expect(hub.events[1]).toMatchObject({ causedBy: origin.id, depth: 1, principal: "pipeline" });
    expect(((await snapshotTables(hub)).Event as Array<Pick<EventRow, "causedBy" | "depth">>)[1]).toMatchObject({ causedBy: origin.id, depth: 1 });
  });

  it("refuse a write started inside a write instead of deadlocking", async () => {
    const err = await hub.db
      .write("outer", "tester", async (tx) => {
        await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('outer',${tx.now},'{}')`);
        await hub.db.write("inner", "tester", async () => "never");
      })
      .catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe("write 'inner' started inside write 'outer': pass the transaction down instead");
    expect(await teamIds()).toEqual([]);
    expect(await writeTeam("after")).toBe("after");
  });

  it("serialize concurrent writes: 50 parallel publishes get versions 1..50", async () => {
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => publish({ id: "hot", data: { i } })));
    expect(results.map((r) => r.version).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(new Set(results.map((r) => r.seq)).size).toBe(50);
    const versions = (await snapshotTables(hub)).ArtifactVersion as Array<Pick<ArtifactVersionRow, "version" | "data">>;
    expect(versions.map((v) => v.version)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(((await snapshotTables(hub)).Artifact as Array<Pick<ArtifactRow, "latestVersion">>)[0].latestVersion).toBe(50);
  });

  it("let exactly one of many racing publishers with expectedVersion win", async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => publish({ id: "once", expectedVersion: 0 })));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected").map((o) => o.reason as DomainError);
    expect(refused.map((e) => [e.code, e.details.actual])).toEqual(Array.from({ length: 9 }, () => ["conflict", 1]));
  });

  it("never show a read what a write has not committed", async () => {
    const hold = gate();
    const entered = gate();
    const writing = hub.db.write("test.slow", "tester", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('slow',${tx.now},'{}')`);
      entered.open();
      await hold.opened;
    });
    await entered.opened;
    expect(await teamIds()).toEqual([]);
    hold.open();
    await writing;
    expect(await teamIds()).toEqual(["slow"]);
  });

  it("give each read one consistent snapshot", async () => {
    await writeTeam("a");
    const counts = await hub.db.read(async (s) => {
      const count = async () => (await s.get<{ n: number }>(sql`SELECT COUNT(*) AS n FROM "Team"`))!.n;
      const first = await count();
      await writeTeam("b");
      return [first, await count()];
    });
    expect(counts).toEqual([1, 1]);
    expect(await teamIds()).toEqual(["a", "b"]);
  });

  it("run after-commit steps after publishing, and never fail a committed write", async () => {
    const order: string[] = [];
    hub.bus.subscribe(() => void order.push("bus"));
    hub.bus.subscribe(() => {
      throw new Error("a broken subscriber (logged, expected by this test)");
    });
    const result = await hub.db.write("test.hooks", "tester", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('t',${tx.now},'{}')`);
      await tx.emit({ teamId: "t", type: "team.created", subject: "team:t", payload: { id: "t" } });
      tx.afterCommit(() => void order.push("hook 1"));
      tx.afterCommit(() => {
        throw new Error("a broken after-commit step (logged, expected by this test)");
      });
      tx.afterCommit(async () => void order.push("hook 3"));
      return "committed";
    });
    expect(result).toBe("committed");
    expect(order).toEqual(["bus", "hook 1", "hook 3"]);
    expect(await teamIds()).toEqual(["t"]);
  });
});

describe("dates", () => {
  it("round-trip through the ISO form and read CURRENT_TIMESTAMP defaults as UTC", () => {
    const d = new Date("2026-11-21T10:20:30.456Z");
    expect(toSqlDate(d)).toBe("2026-11-21T10:20:30.456+00:00");
    expect(fromSqlDate(toSqlDate(d))).toEqual(d);
    expect(fromSqlDate("2026-11-21 10:20:30")).toEqual(new Date("2026-11-21T10:20:30Z"));
    expect(fromSqlDate(d.getTime())).toEqual(d);
    expect(fromSqlDate(null)).toBeNull();
  });
});

describe("Prisma compatibility", () => {
  // Each database has its own generated client (prisma/schema.prisma, prisma/postgres/schema.prisma); their API is one.
  const prismaFor = (where: DatabaseLocation): PrismaClient =>
    where.kind === "sqlite"
      ? new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${where.file}` }) })
      : (new PgPrismaClient({ adapter: new PrismaPg({ connectionString: where.url }) }) as unknown as PrismaClient);

  it("Prisma Client reads what the SQL layer wrote, with Dates and JSON text intact", async () => {
    const contract = await createContract(
      hub,
      OPERATOR,
      CreateContractInput.parse({ id: "c", title: "Work", assignee: "dev", timeoutMs: 90_000, inputs: { context: "ctx" } }),
    );
    const v = await publish({ id: "spec", data: { nested: { list: [1, "two", null] } }, tags: ["t1"] });
    await archiveTeam(hub, OPERATOR, { team: "default" });

    const prisma = prismaFor(hub.where);
    try {
      const team = await prisma.team.findUniqueOrThrow({ where: { id: "default" } });
      expect(team.createdAt).toBeInstanceOf(Date);
      expect(team.createdAt.getTime()).toBe(contract.createdAt.getTime());
      expect(team.archivedAt).toBeInstanceOf(Date);

      const version = await prisma.artifactVersion.findFirstOrThrow({ include: { artifact: { include: { tags: true } } } });
      expect(version).toMatchObject({ seq: v.seq, version: 1, status: "active", publisher: "operator", size: v.size });
      expect(version.createdAt.getTime()).toBe(v.createdAt.getTime());
      expect(jsonColumn(JsonValue, version.data)).toEqual({ nested: { list: [1, "two", null] } });
      expect(version.artifact.tags.map((t) => t.tag)).toEqual(["t1"]);

      const c = await prisma.contract.findFirstOrThrow({ include: { dependencies: true } });
      expect(c).toMatchObject({ id: "c", status: "ready", timeoutMs: 90_000, retryCount: 0 });
      expect(c.deadlineAt!.getTime()).toBe(contract.deadlineAt!.getTime());
      expect(jsonColumn(JsonObject, c.inputs)).toEqual({ context: "ctx" });

      const events = await prisma.event.findMany({ orderBy: { id: "asc" } });
      expect(events.map((e) => e.type)).toEqual(hub.events.map((e) => e.type));
      expect(events.map((e) => e.at.getTime())).toEqual(hub.events.map((e) => e.at.getTime()));
      expect(events.map((e) => jsonColumn(JsonValue, e.payload))).toEqual(JSON.parse(JSON.stringify(hub.events.map((e) => e.payload))));
    } finally {
      await prisma.$disconnect();
    }
  });

  it("the SQL layer reads what Prisma Client wrote", async () => {
    const prisma = prismaFor(hub.where);
    const at = new Date("2026-01-02T03:04:05.678Z");
    try {
      await prisma.team.create({ data: { id: "from-prisma", createdAt: at } });
      await prisma.event.create({ data: { teamId: "from-prisma", type: "team.created", subject: "x", payload: '{"id":"from-prisma"}', principal: "p" } });
    } finally {
      await prisma.$disconnect();
    }
    const row = await hub.db.read((s) => s.get<Pick<TeamRow, "createdAt">>(sql`SELECT "createdAt" FROM "Team" WHERE "id" = 'from-prisma'`));
    expect(row!.createdAt).toEqual(at);
    const event = await hub.db.read((s) => s.get<Pick<EventRow, "at">>(sql`SELECT "at" FROM "Event"`));
    expect(event!.at).toBeInstanceOf(Date);
    expect(Math.abs(event!.at.getTime() - Date.now())).toBeLessThan(60_000);
  });
});
