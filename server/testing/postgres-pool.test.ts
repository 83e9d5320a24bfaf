/**
 * The test databases reused from test to test (./postgres-pool.ts): a database handed out again is exactly as the
 * migrations left it, whatever the test before it wrote or left open. Runs in the `postgres` project; skipped without
 * a PostgreSQL server.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { sql } from "../db/sql.ts";
import { publishArtifact } from "../domain/artifacts/artifacts.service.ts";
import { OPERATOR } from "../domain/principal.ts";
import { createTeam } from "../domain/teams/teams.service.ts";
import { EventBus } from "../events/bus.ts";
import { POSTGRES_URL, snapshotTables, tempHub, type TempHub } from "./temp-hub.ts";

const opened: TempHub[] = [];
const hub = async () => {
  const h = await tempHub();
  opened.push(h);
  return h;
};
afterEach(async () => {
  for (const h of opened.splice(0)) await h.close();
});

describe.skipIf(!POSTGRES_URL)("a reused PostgreSQL test database", () => {
  it("comes back as the migrations left it: rows gone, the migrations' own rows kept, sequences restarted, other connections ended", async () => {
    const fresh = await hub();
    const migrated = await snapshotTables(fresh);
    expect(migrated._prisma_migrations!.length).toBeGreaterThan(0);
    const used = fresh.where;
    // Rows in tables that reference each other, and sequences moved on.
    await createTeam(fresh, OPERATOR, { id: "t1" });
    await publishArtifact(fresh, OPERATOR, PublishArtifactInput.parse({ team: "t1", id: "spec", type: "custom", data: { v: 1 } }));
    expect(Object.values(await snapshotTables(fresh)).flat().length).toBeGreaterThan(migrated._prisma_migrations!.length + 2);
    // What another process would leave behind: a connection in an open transaction that holds a row lock.
    const stray = new pg.Client({ connectionString: (used as { url: string }).url });
    await stray.connect();
    stray.on("error", () => {});
    await stray.query(`BEGIN; DELETE FROM "_prisma_migrations"; SELECT nextval('"Event_id_seq"')`);
    opened.splice(0);
    await fresh.close();

    const again = await hub();
    expect(again.where).toEqual(used);
    expect(await snapshotTables(again)).toEqual(migrated);
    const seq = await again.db.write("test.sequence", "tester", (tx) => tx.get<{ n: string }>(sql`SELECT nextval('"Event_id_seq"')::text AS "n"`));
    expect(seq?.n).toBe("1");
    await expect(stray.query("SELECT 1")).rejects.toThrow();
    expect(await createTeam(again, OPERATOR, { id: "t1" })).toMatchObject({ id: "t1" });
  });

  it("comes back without the settings a test gave it", async () => {
    const first = await hub();
    const { url } = first.where as { url: string };
    const name = new URL(url).pathname.slice(1);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" SET lock_timeout = '100ms'`).finally(() => admin.end());
    opened.splice(0);
    await first.close();

    const again = await hub();
    expect(again.where).toEqual(first.where);
    const shown = await again.db.read((s) => s.get<{ lock_timeout: string }>(sql`SHOW lock_timeout`));
    expect(shown?.lock_timeout).toBe("0");
  });

  it("gives tests open at once databases of their own", async () => {
    const [a, b] = [await hub(), await hub()];
    expect(a.where).not.toEqual(b.where);
    await createTeam(a, OPERATOR, { id: "only-a" });
    const other = b.connect(new EventBus());
    try {
      expect(await other.read((s) => s.all(sql`SELECT "id" FROM "Team"`))).toEqual([]);
    } finally {
      await other.close();
    }
  });
});
