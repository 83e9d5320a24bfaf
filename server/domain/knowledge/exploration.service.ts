/**
 * The exploration cache (docs/knowledge.md#exploration-cache): what a member found out about a research angle, stored
 * once so nobody researches it twice. Angles are kebab-case (the schema normalises them). An entry is its newest live
 * revision; only its creator appends revisions (capability `exploration.update`), and entries never expire within the
 * team — a reset or rollback archives them with the rest of the team's state.
 */
import type { Sql } from "../../db/connection.ts";
import { formatRef, pinRef } from "../artifacts/refs.ts";
import type {
  ExplorationListInput,
  ExplorationLookup,
  ExplorationLookupInput,
  ExplorationPage,
  ExplorationRecord,
  ExplorationRecordInput,
  ExplorationView,
} from "../../../lib/api/knowledge.ts";
import { fromSqlDate } from "../../db/connection.ts";
import { EMPTY, raw, sql } from "../../db/sql.ts";
import type { ExplorationRow } from "../../db/rows.ts";
import { authorize } from "../auth/capabilities.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";

/** The newest live revision, with its first live revision's author and time (`createdBy`, `createdAt`: computed). */
type EntryRow = Pick<ExplorationRow, "teamId" | "angle" | "revision" | "result" | "refArtifact" | "refVersion" | "createdAt"> & {
  createdBy: ExplorationRow["author"];
  firstAt: unknown;
};

const live = (team: string) => sql`e."teamId" = ${team} AND e."archivedAt" IS NULL`;
const FIRST = (col: string) =>
  raw(`(SELECT f."${col}" FROM "Exploration" f WHERE f."teamId" = e."teamId" AND f."angle" = e."angle" AND f."archivedAt" IS NULL ORDER BY f."id" LIMIT 1)`);
const entrySelect = (team: string) => sql`SELECT e."teamId", e."angle", e."revision", e."result", e."refArtifact", e."refVersion", e."createdAt",
    ${FIRST("author")} AS "createdBy", ${FIRST("createdAt")} AS "firstAt"
  FROM "Exploration" e
  WHERE ${live(team)} AND e."id" = (SELECT MAX(l."id") FROM "Exploration" l WHERE l."teamId" = e."teamId" AND l."angle" = e."angle" AND l."archivedAt" IS NULL)`;

const toView = (r: EntryRow): ExplorationView => ({
  team: r.teamId,
  angle: r.angle,
  result: r.result,
  ref: r.refArtifact === null || r.refVersion === null ? null : { artifactId: r.refArtifact, version: r.refVersion },
  createdBy: r.createdBy,
  createdAt: fromSqlDate(r.firstAt) ?? r.createdAt,
  updatedAt: r.createdAt,
  revision: r.revision,
});

const entryOf = (s: Sql, team: string, angle: string) => s.get<EntryRow>(sql`${entrySelect(team)} AND e."angle" = ${angle}`);

export async function lookupExploration({ db }: DomainDeps, input: ExplorationLookupInput): Promise<ExplorationLookup> {
  const row = await db.read((s) => entryOf(s, input.team, input.angle));
  return { angle: input.angle, hit: row !== undefined, entry: row ? toView(row) : null };
}

export async function recordExploration({ db }: DomainDeps, actor: Principal, input: ExplorationRecordInput): Promise<ExplorationRecord> {
  return db.write("exploration.record", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    const existing = await entryOf(tx, input.team, input.angle);
    if (existing)
      await authorize(tx, actor, "exploration.update", {
        team: input.team,
        owners: [existing.createdBy],
        label: `'${input.angle}' (created by ${existing.createdBy})`,
      });
    const ref = input.ref === undefined ? null : await pinRef(tx, input.team, input.ref, "ref");
    // Numbered past archived revisions too, so the unique key turns two first records of one angle into a conflict.
    const { n } = (await tx.get<{ n: number }>(
      sql`SELECT COALESCE(MAX("revision"), 0) AS "n" FROM "Exploration" WHERE "teamId" = ${input.team} AND "angle" = ${input.angle}`,
    ))!;
    await tx.run(
      sql`INSERT INTO "Exploration" ("teamId","angle","revision","result","refArtifact","refVersion","author","createdAt") VALUES (${input.team},${input.angle},${n + 1},${input.result},${ref?.artifactId ?? null},${ref?.version ?? null},${actor.name},${tx.now})`,
    );
    const outcome = existing ? ("updated" as const) : ("created" as const);
    await tx.emit({
      teamId: input.team,
      type: "exploration.recorded",
      subject: `exploration:${input.angle}`,
      payload: { angle: input.angle, revision: n + 1, author: actor.name, outcome, ...(ref ? { ref: formatRef(ref) } : {}) },
    });
    return { ...toView((await entryOf(tx, input.team, input.angle))!), outcome };
  });
}

/** By angle; the next page starts after `cursor` (the last angle of the previous page). */
export async function listExplorations({ db }: DomainDeps, input: ExplorationListInput): Promise<ExplorationPage> {
  const after = input.cursor === undefined ? EMPTY : sql`AND e."angle" > ${input.cursor}`;
  const rows = await db.read((s) => s.all<EntryRow>(sql`${entrySelect(input.team)} ${after} ORDER BY e."angle" LIMIT ${input.limit + 1}`));
  const page = rows.slice(0, input.limit);
  return { items: page.map(toView), nextCursor: rows.length > input.limit ? page[page.length - 1].angle : null };
}

/**
 * The cached entries relevant to a contract (docs/knowledge.md#context-loading): those whose angle appears, as whole
 * kebab-case words, in one of `texts` (its inputs' keys and string values, normalised the way angles are).
 */
export async function explorationsMatching(s: Sql, team: string, texts: readonly string[]): Promise<ExplorationView[]> {
  const padded = texts.filter(Boolean).map((t) => `-${t}-`);
  if (!padded.length) return [];
  const rows = await s.all<EntryRow>(sql`${entrySelect(team)} ORDER BY e."angle"`);
  return rows.filter((r) => padded.some((t) => t.includes(`-${r.angle}-`))).map(toView);
}
