/**
 * The migration that folds the decision journal and the pattern registry into wisdom (docs/knowledge.md#wisdom): a
 * database at the migration before it, holding decisions and patterns, keeps them all, and the old commands return them.
 */
import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, expect, it } from "vitest";
import { ListDecisionsInput, ListPatternsInput, PatternRefInput } from "../../lib/api/continuity.ts";
import { ListWisdomInput } from "../../lib/api/knowledge.ts";
import { listDecisions } from "../domain/continuity/decisions.service.ts";
import { getPattern, listPatterns } from "../domain/continuity/patterns.service.ts";
import { listWisdom } from "../domain/knowledge/wisdom.service.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import { EventBus } from "../events/bus.ts";
import { tempDir } from "../testing/temp-dir.ts";
import type { Database } from "./database.ts";
import { MIGRATIONS_DIR, migrate, type MigrateResult } from "./migrate.ts";
import { PG_MIGRATIONS_DIR, migratePostgres } from "./migrate-postgres.ts";
import { connectDatabase, type DatabaseLocation } from "./open.ts";
import { sql, type Query } from "./sql.ts";
import { POSTGRES_URL, tempPostgres } from "../testing/temp-hub.ts";

/** A database at the migration before the fold, the raw statements to fill it, and the fold itself. */
type Side = {
  name: string;
  migrations: string;
  /** Migrates a fresh database with `dir`'s migrations; returns where it is. */
  create(dir: string): Promise<DatabaseLocation>;
  migrate(where: DatabaseLocation, dir: string): Promise<MigrateResult>;
  exec(where: DatabaseLocation, statements: Array<[string, unknown[]]>): Promise<void>;
  oldTables: Query;
};

const drops: Array<() => Promise<void>> = [];
const SIDES: Side[] = [
  {
    name: "SQLite",
    migrations: MIGRATIONS_DIR,
    create: async (dir) => {
      const where = { kind: "sqlite" as const, file: path.join(dir, "hub.db") };
      migrate(where.file, path.join(dir, "migrations"));
      return where;
    },
    migrate: async (where) => migrate((where as { file: string }).file),
    exec: async (where, statements) => {
      const raw = new BetterSqlite3((where as { file: string }).file);
      for (const [text, params] of statements) raw.prepare(text).run(...params);
      raw.close();
    },
    oldTables: sql`SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" IN ('Decision','Pattern')`,
  },
  ...(POSTGRES_URL
    ? [
        {
          name: "PostgreSQL",
          migrations: PG_MIGRATIONS_DIR,
          create: async (dir: string) => {
            const pgdb = await tempPostgres();
            drops.push(pgdb.drop);
            await migratePostgres(pgdb.where.url, path.join(dir, "migrations"));
            return pgdb.where;
          },
          migrate: async (where: DatabaseLocation) => migratePostgres((where as { url: string }).url),
          exec: async (where: DatabaseLocation, statements: Array<[string, unknown[]]>) => {
            const client = new pg.Client({ connectionString: (where as { url: string }).url });
            await client.connect();
            try {
              for (const [text, params] of statements) await client.query(dollars(text), params);
            } finally {
              await client.end();
            }
          },
          oldTables: sql`SELECT table_name AS "name" FROM information_schema.tables WHERE table_schema = 'public' AND table_name IN ('Decision','Pattern')`,
        },
      ]
    : []),
];

/** `?` placeholders as PostgreSQL's `$n`. */
const dollars = (text: string) => {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
};

let db: Database | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
  for (const drop of drops.splice(0)) await drop();
});

it.each(SIDES)("$name: keeps every decision (with its id and links) and every pattern, and the old commands still return them", async (side) => {
  const fold = fs.readdirSync(side.migrations).find((m) => m.endsWith("_team_knowledge"))!;
  const dir = tempDir("wisdom-migration");
  const before = path.join(dir, "migrations");
  fs.cpSync(side.migrations, before, { recursive: true });
  fs.rmSync(path.join(before, fold), { recursive: true });
  const where = await side.create(dir);

  const at = (s: string) => new Date(`2026-11-0${s}T10:00:00.000Z`);
  const decision = `INSERT INTO "Decision" ("id","teamId","title","decision","rationale","alternatives","related","author","createdAt") VALUES (?,?,?,?,?,?,?,?,?)`;
  const pattern = `INSERT INTO "Pattern" ("teamId","name","description","examples","author","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`;
  // SQLite stores dates as the ISO text the hub writes; pg binds a Date as a timestamp.
  const when = (s: string) => (side.name === "SQLite" ? at(s).toISOString().replace("Z", "+00:00") : at(s));
  await side.exec(where, [
    [`INSERT INTO "Team" ("id","createdAt","settings") VALUES (?,?,?)`, ["default", when("1"), "{}"]],
    [`INSERT INTO "Team" ("id","createdAt","settings") VALUES (?,?,?)`, ["other", when("1"), "{}"]],
    [
      decision,
      [
        3,
        "default",
        "Use JWT",
        "RS256, 15 minutes",
        "Stateless",
        JSON.stringify(["Sessions"]),
        JSON.stringify({ artifacts: ["api-spec"], contracts: ["build-api"] }),
        "api-dev",
        when("2"),
      ],
    ],
    [decision, [7, "default", "Ship Fridays", "Yes", "", "[]", "{}", "operator", when("3")]],
    [decision, [8, "other", "Elsewhere", "Other team", "", "[]", JSON.stringify({ artifacts: [], contracts: ["build-api"] }), "qa", when("4")]],
    [pattern, ["default", "naming", "kebab-case files", JSON.stringify(["user-service.ts"]), "qa-dev", when("2"), when("2")]],
    [pattern, ["default", "error-envelope", "{error: {code}}", "[]", "api-dev", when("3"), when("5")]],
  ]);

  expect(await side.migrate(where, side.migrations)).toEqual({
    applied: [fold],
    alreadyApplied: fs.readdirSync(before).filter((m) => !m.endsWith(".toml")).length,
  });
  const bus = new EventBus();
  db = connectDatabase(where, bus);
  const deps = { db, bus };

  const decisions = await listDecisions(deps, parseOrThrow(ListDecisionsInput, {}));
  expect(decisions.items).toEqual([
    {
      id: 7,
      team: "default",
      title: "Ship Fridays",
      decision: "Yes",
      rationale: "",
      alternatives: [],
      related: { artifacts: [], contracts: [] },
      author: "operator",
      createdAt: at("3"),
    },
    {
      id: 3,
      team: "default",
      title: "Use JWT",
      decision: "RS256, 15 minutes",
      rationale: "Stateless",
      alternatives: ["Sessions"],
      related: { artifacts: ["api-spec"], contracts: ["build-api"] },
      author: "api-dev",
      createdAt: at("2"),
    },
  ]);
  expect((await listDecisions(deps, parseOrThrow(ListDecisionsInput, { contract: "build-api" }))).items.map((d) => d.id)).toEqual([3]);
  expect((await listDecisions(deps, parseOrThrow(ListDecisionsInput, { team: "other", contract: "build-api" }))).items.map((d) => d.id)).toEqual([8]);
  expect((await listDecisions(deps, parseOrThrow(ListDecisionsInput, { artifact: "api-spec" }))).items.map((d) => d.id)).toEqual([3]);

  expect(await getPattern(deps, parseOrThrow(PatternRefInput, { name: "naming" }))).toEqual({
    name: "naming",
    team: "default",
    description: "kebab-case files",
    examples: ["user-service.ts"],
    author: "qa-dev",
    createdAt: at("2"),
    updatedAt: at("2"),
  });
  expect((await listPatterns(deps, parseOrThrow(ListPatternsInput, {}))).items.map((p) => [p.name, p.updatedAt])).toEqual([
    ["error-envelope", at("5")],
    ["naming", at("2")],
  ]);
  expect((await listWisdom(deps, parseOrThrow(ListWisdomInput, {}))).items.map((w) => [w.id, w.kind, w.title])).toEqual([
    [3, "decision", "Use JWT"],
    [7, "decision", "Ship Fridays"],
    [9, "convention", "naming"],
    [10, "convention", "error-envelope"],
  ]);
  const tables = await db.read((s) => s.all(side.oldTables));
  expect(tables).toEqual([]);
});
