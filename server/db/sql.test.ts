import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempHub, type TempHub } from "../testing/temp-hub.ts";
import { EMPTY, inList, join, raw, sql, values } from "./sql.ts";
import type { TeamRow } from "./rows.ts";

describe("the sql template", () => {
  it("binds each value where it stands and splices a fragment's values in their place", () => {
    const inner = sql`"b" = ${2} AND "c" = ${3}`;
    const q = sql`SELECT 1 WHERE "a" = ${1} AND ${inner} AND "d" = ${4}`;
    expect(q.text).toBe(`SELECT 1 WHERE "a" = ? AND "b" = ? AND "c" = ? AND "d" = ?`);
    expect(q.params).toEqual([1, 2, 3, 4]);
  });

  it("lists values as a parameter each, in order", () => {
    const q = sql`"s" IN (${values(["a", "b", "c"])}) AND "n" = ${1}`;
    expect(q.text).toBe(`"s" IN (?,?,?) AND "n" = ?`);
    expect(q.params).toEqual(["a", "b", "c", 1]);
    expect(values([1, 2], ", ").text).toBe("?, ?");
  });

  it("builds a call site's text once when it has no fragment", () => {
    const at = (v: number) => sql`SELECT ${v}`;
    expect(at(1).text).toBe(at(2).text);
    expect(Object.is(at(1).text, at(2).text)).toBe(true);
    expect(at(2).params).toEqual([2]);
  });

  it("joins fragments with their values in order, and joins none to nothing", () => {
    const q = join([sql`(${1},${"a"})`, raw(`(2,'b')`), sql`(${3},${"c"})`]);
    expect(q.text).toBe(`(?,?), (2,'b'), (?,?)`);
    expect(q.params).toEqual([1, "a", 3, "c"]);
    expect(join([])).toBe(EMPTY);
    expect(join([sql`"x" = ${1}`, sql`"y" = ${2}`], " AND ").text).toBe(`"x" = ? AND "y" = ?`);
  });
});

describe("the sql template on the database", () => {
  let hub: TempHub;
  beforeEach(async () => {
    hub = await tempHub();
    await hub.db.write("test.teams", "tester", async (tx) => {
      for (const id of ["alpha", "beta", "gamma"]) await tx.run(sql`INSERT INTO "Team" ("id","createdAt","settings") VALUES (${id},${tx.now},'{}')`);
    });
  });
  afterEach(() => hub.close());

  const ids = (where: ReturnType<typeof sql>) =>
    hub.db.read(async (s) => (await s.all<Pick<TeamRow, "id">>(sql`SELECT "id" FROM "Team" WHERE ${where} ORDER BY "id"`)).map((r) => r.id));

  it("reads a value as a value, never as SQL", async () => {
    const attack = `alpha' OR '1'='1`;
    expect(await ids(sql`"id" = ${attack}`)).toEqual([]);
    await hub.db.write("test.attack", "tester", (tx) => tx.run(sql`UPDATE "Team" SET "settings" = ${`'); DROP TABLE "Team"; --`} WHERE "id" = ${"beta"}`));
    expect(await ids(sql`1 = 1`)).toEqual(["alpha", "beta", "gamma"]);
  });

  it("binds values before, inside and after a fragment in their places", async () => {
    const middle = sql`"id" <> ${"beta"}`;
    expect(await ids(sql`"id" >= ${"alpha"} AND ${middle} AND "id" <= ${"gamma"}`)).toEqual(["alpha", "gamma"]);
  });

  it("takes a list as one value after IN and NOT IN, however long, and an empty one", async () => {
    expect(await ids(sql`"id" IN ${inList(["gamma", "alpha", "zeta"])}`)).toEqual(["alpha", "gamma"]);
    expect(await ids(sql`"id" NOT IN ${inList(["alpha"])}`)).toEqual(["beta", "gamma"]);
    expect(await ids(sql`"id" IN ${inList([])}`)).toEqual([]);
    const many = Array.from({ length: 5000 }, (_, i) => `team-${i}`);
    expect(await ids(sql`"id" IN ${inList([...many, "beta"])}`)).toEqual(["beta"]);
  });
});
