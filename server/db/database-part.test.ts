/** `tx.part`: a savepoint that stands as a write of its own inside a transaction (server/db/database.ts), on both databases. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HubEvent } from "../events/types.ts";
import { tempHub, type TempHub } from "../testing/temp-hub.ts";
import type { EventRow, TeamRow } from "./rows.ts";
import { sql } from "./sql.ts";

let hub: TempHub;
let published: HubEvent[];
beforeEach(async () => {
  hub = await tempHub();
  published = [];
  hub.bus.subscribe((events) => void published.push(...events));
});
afterEach(() => hub.close());

const teams = () => hub.db.read(async (s) => (await s.all<Pick<TeamRow, "id">>(sql`SELECT "id" FROM "Team" ORDER BY "id"`)).map((t) => t.id));
const registered = (name: string) => ({ teamId: "t", type: "artifact_type.registered" as const, subject: `type:${name}`, payload: { name } });

describe("a part of a transaction", () => {
  it("undoes only itself when it throws: its rows, its events, its steps; the transaction goes on and commits", async () => {
    const steps: string[] = [];
    await hub.db.write("test.parts", "tester", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('t',${tx.now},'{}')`);
      await tx.part({ name: "kept", principal: "tester", cause: null }, async (p) => {
        await p.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('kept',${p.now},'{}')`);
        await p.emit(registered("kept"));
        p.afterCommit(() => void steps.push("kept"));
      });
      await expect(
        tx.part({ name: "undone", principal: "tester", cause: null }, async (p) => {
          await p.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('undone',${p.now},'{}')`);
          await p.emit(registered("undone"));
          p.afterCommit(() => void steps.push("undone"));
          p.beforeCommit(async () => void steps.push("undone summary"));
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      await tx.emit(registered("after"));
    });
    expect(await teams()).toEqual(["kept", "t"]);
    expect(published.map((e) => (e.type === "artifact_type.registered" ? e.payload.name : e.type))).toEqual(["kept", "after"]);
    expect(steps).toEqual(["kept"]);
    const logged = await hub.db.read((s) => s.all<Pick<EventRow, "subject">>(sql`SELECT "subject" FROM "Event" WHERE "teamId" = 't' ORDER BY "id"`));
    expect(logged.map((e) => e.subject)).toEqual(["type:kept", "type:after"]);
  });

  it("emits as its own principal and cause, and sees only its own events as emitted", async () => {
    await hub.db.write("test.parts", "runner", async (tx) => {
      await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('t',${tx.now},'{}')`);
      await tx.emit(registered("outer"));
      await tx.part({ name: "inner", principal: "creator", cause: { eventId: 7, depth: 2 } }, async (p) => {
        await p.emit(registered("inner"));
        expect(p.emitted.map((e) => e.subject)).toEqual(["type:inner"]);
      });
      expect(tx.emitted.map((e) => e.subject)).toEqual(["type:outer", "type:inner"]);
    });
    expect(published.map((e) => [e.subject, e.principal, e.causedBy, e.depth])).toEqual([
      ["type:outer", "runner", null, 0],
      ["type:inner", "creator", 7, 3],
    ]);
  });

  it("runs its before-commit steps at its own end, so a summary covers the part alone", async () => {
    const order: string[] = [];
    await hub.db.write("test.parts", "tester", async (tx) => {
      tx.beforeCommit(async () => void order.push("transaction summary"));
      await tx.part({ name: "part", principal: "tester", cause: null }, async (p) => {
        p.beforeCommit(async () => void order.push("part summary"));
        order.push("part body");
      });
      order.push("after the part");
    });
    expect(order).toEqual(["part body", "part summary", "after the part", "transaction summary"]);
  });

  it("nests: an inner part that throws leaves the outer part's work", async () => {
    await hub.db.write("test.parts", "tester", async (tx) => {
      await tx.part({ name: "outer", principal: "tester", cause: null }, async (outer) => {
        await outer.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('outer',${outer.now},'{}')`);
        await expect(
          outer.part({ name: "inner", principal: "tester", cause: null }, async (inner) => {
            await inner.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('inner',${inner.now},'{}')`);
            throw new Error("inner refused");
          }),
        ).rejects.toThrow("inner refused");
      });
    });
    expect(await teams()).toEqual(["outer"]);
  });
});
