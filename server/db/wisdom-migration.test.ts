/**
 * The migration that folds the decision journal and the pattern registry into wisdom (docs/knowledge.md#wisdom): a
 * database at the migration before it, holding decisions and patterns, keeps them all, and the old commands return them.
 */
import fs from "node:fs";
import path from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, expect, it } from "vitest";
import { ListDecisionsInput, ListPatternsInput, PatternRefInput } from "../../lib/api/continuity.ts";
import { ListWisdomInput } from "../../lib/api/knowledge.ts";
import { listDecisions } from "../domain/continuity/decisions.service.ts";
import { getPattern, listPatterns } from "../domain/continuity/patterns.service.ts";
import { listWisdom } from "../domain/knowledge/wisdom.service.ts";
import { parseOrThrow } from "../domain/zod-errors.ts";
import { EventBus } from "../events/bus.ts";
import { tempDir } from "../testing/temp-dir.ts";
import { Database } from "./database.ts";
import { MIGRATIONS_DIR, migrate } from "./migrate.ts";

const FOLD = fs.readdirSync(MIGRATIONS_DIR).find((m) => m.endsWith("_team_knowledge"))!;

let db: Database | undefined;
afterEach(() => db?.close());

it("keeps every decision (with its id and links) and every pattern, and the old commands still return them", async () => {
  const dir = tempDir("wisdom-migration");
  const before = path.join(dir, "migrations");
  fs.cpSync(MIGRATIONS_DIR, before, { recursive: true });
  fs.rmSync(path.join(before, FOLD), { recursive: true });
  const file = path.join(dir, "hub.db");
  migrate(file, before);

  const raw = new BetterSqlite3(file);
  const at = (s: string) => `2026-11-0${s}T10:00:00.000+00:00`;
  raw.exec(`INSERT INTO "Team" ("id","createdAt","settings") VALUES ('default','${at("1")}','{}'), ('other','${at("1")}','{}')`);
  const decision = raw.prepare(
    `INSERT INTO "Decision" ("id","teamId","title","decision","rationale","alternatives","related","author","createdAt") VALUES (?,?,?,?,?,?,?,?,?)`,
  );
  decision.run(
    3,
    "default",
    "Use JWT",
    "RS256, 15 minutes",
    "Stateless",
    JSON.stringify(["Sessions"]),
    JSON.stringify({ artifacts: ["api-spec"], contracts: ["build-api"] }),
    "api-dev",
    at("2"),
  );
  decision.run(7, "default", "Ship Fridays", "Yes", "", "[]", "{}", "operator", at("3"));
  decision.run(8, "other", "Elsewhere", "Other team", "", "[]", JSON.stringify({ artifacts: [], contracts: ["build-api"] }), "qa", at("4"));
  const pattern = raw.prepare(`INSERT INTO "Pattern" ("teamId","name","description","examples","author","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`);
  pattern.run("default", "naming", "kebab-case files", JSON.stringify(["user-service.ts"]), "qa-dev", at("2"), at("2"));
  pattern.run("default", "error-envelope", "{error: {code}}", "[]", "api-dev", at("3"), at("5"));
  raw.close();

  expect(migrate(file)).toEqual({ applied: [FOLD], alreadyApplied: fs.readdirSync(before).filter((m) => !m.endsWith(".toml")).length });
  const bus = new EventBus();
  db = new Database(file, bus);
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
      createdAt: new Date(at("3")),
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
      createdAt: new Date(at("2")),
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
    createdAt: new Date(at("2")),
    updatedAt: new Date(at("2")),
  });
  expect((await listPatterns(deps, parseOrThrow(ListPatternsInput, {}))).items.map((p) => [p.name, p.updatedAt])).toEqual([
    ["error-envelope", new Date(at("5"))],
    ["naming", new Date(at("2"))],
  ]);
  expect((await listWisdom(deps, parseOrThrow(ListWisdomInput, {}))).items.map((w) => [w.id, w.kind, w.title])).toEqual([
    [3, "decision", "Use JWT"],
    [7, "decision", "Ship Fridays"],
    [9, "convention", "naming"],
    [10, "convention", "error-envelope"],
  ]);
  const tables = db.reader.allSync<{ name: string }>(`SELECT "name" FROM sqlite_master WHERE "type" = 'table' AND "name" IN ('Decision','Pattern')`);
  expect(tables).toEqual([]);
});
