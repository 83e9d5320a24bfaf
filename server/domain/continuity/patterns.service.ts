/**
 * The pattern registry (docs/domain.md#continuity): the project's conventions by name, with examples — the `convention`
 * kind of team wisdom (docs/knowledge.md#wisdom), whose title is the pattern's name. Registering a name that exists
 * appends a newer entry, which is the convention from then on (conventions evolve; the earlier text stays in the
 * journal); `author` is who wrote the current text, `createdAt` when the name first appeared. Registering the same
 * text again appends nothing and announces nothing, so briefings only show real changes.
 */
import { notFound } from "../../errors.ts";
import type { ListPatternsInput, PatternPage, PatternRefInput, PatternRegistration, PatternView, RegisterPatternInput } from "../../../lib/api/continuity.ts";
import { fromSqlDate, type Sql } from "../../db/connection.ts";
import { EMPTY, raw, sql } from "../../db/sql.ts";
import type { WisdomRow } from "../../db/rows.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { appendInTx, toWisdomView } from "../knowledge/wisdom.service.ts";

/** `firstAt` is computed, so the SQL layer does not know it for a date. */
type PatternRow = WisdomRow & { firstAt: unknown };

/** The newest convention entry per name, with when the name first appeared. */
export const PATTERN_SELECT =
  raw(`SELECT w.*, (SELECT MIN(f."createdAt") FROM "Wisdom" f WHERE f."teamId" = w."teamId" AND f."kind" = 'convention' AND f."title" = w."title") AS "firstAt"
  FROM "Wisdom" w
  WHERE w."kind" = 'convention' AND w."id" = (SELECT MAX(l."id") FROM "Wisdom" l WHERE l."teamId" = w."teamId" AND l."kind" = 'convention' AND l."title" = w."title")`);

export const toPatternView = (r: PatternRow): PatternView => {
  const w = toWisdomView(r);
  return {
    name: w.title,
    team: w.team,
    description: w.body,
    examples: w.examples,
    author: w.author,
    createdAt: fromSqlDate(r.firstAt) ?? w.createdAt,
    updatedAt: w.createdAt,
  };
};

const current = (s: Sql, team: string, name: string) => s.get<PatternRow>(sql`${PATTERN_SELECT} AND w."teamId" = ${team} AND w."title" = ${name}`);

export async function registerPattern({ db }: DomainDeps, actor: Principal, input: RegisterPatternInput): Promise<PatternRegistration> {
  return db.write("pattern.register", actor.name, async (tx) => {
    const existing = await current(tx, input.team, input.name);
    if (existing && existing.body === input.description && existing.examples === JSON.stringify(input.examples ?? []))
      return { ...toPatternView(existing), outcome: "unchanged" as const };
    const outcome = existing ? ("updated" as const) : ("created" as const);
    const entry = await appendInTx(tx, input.team, actor.name, { kind: "convention", title: input.name, body: input.description, examples: input.examples });
    await tx.emit({
      teamId: input.team,
      type: "pattern.registered",
      subject: `pattern:${input.name}`,
      payload: { name: input.name, outcome, author: actor.name, entry: entry.id },
    });
    return { ...toPatternView((await current(tx, input.team, input.name))!), outcome };
  });
}

export async function getPattern({ db }: DomainDeps, input: PatternRefInput): Promise<PatternView> {
  const row = await db.read((s) => current(s, input.team, input.name));
  if (!row) throw notFound("pattern", input.name, "name");
  return toPatternView(row);
}

/** By name; the next page starts after `cursor` (the last name of the previous page). */
export async function listPatterns({ db }: DomainDeps, input: ListPatternsInput): Promise<PatternPage> {
  const after = input.cursor === undefined ? EMPTY : sql`AND w."title" > ${input.cursor}`;
  const rows = await db.read((s) =>
    s.all<PatternRow>(sql`${PATTERN_SELECT} AND w."teamId" = ${input.team} ${after} ORDER BY w."title" LIMIT ${input.limit + 1}`),
  );
  const page = rows.slice(0, input.limit);
  return { items: page.map(toPatternView), nextCursor: rows.length > input.limit ? page[page.length - 1].title : null };
}
