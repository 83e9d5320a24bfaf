/**
 * The pattern registry (docs/domain.md#continuity): the project's conventions by name, with examples. Registering a
 * name that exists replaces its description and examples (conventions evolve); `author` is who
 * wrote the current text, `createdAt` when the name first appeared. Registering the same text
 * again changes nothing and announces nothing, so briefings only show real changes.
 */
import { z } from "zod";
import { notFound } from "../../errors.ts";
import type { ListPatternsInput, PatternPage, PatternRefInput, PatternRegistration, PatternView, RegisterPatternInput } from "../../../lib/api/continuity.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";

type PatternRow = { pk: number; teamId: string; name: string; description: string; examples: string; author: string; createdAt: Date; updatedAt: Date };

export const toPatternView = (r: PatternRow): PatternView => ({
  name: r.name,
  team: r.teamId,
  description: r.description,
  examples: z.array(z.string()).parse(JSON.parse(r.examples)),
  author: r.author,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const PATTERN_SELECT = `SELECT * FROM "Pattern"`;

export async function registerPattern({ db }: DomainDeps, actor: Principal, input: RegisterPatternInput): Promise<PatternRegistration> {
  return db.write("pattern.register", actor.name, async (tx) => {
    await ensureTeam(tx, input.team);
    const examples = JSON.stringify(input.examples ?? []);
    const existing = await tx.get<PatternRow>(`${PATTERN_SELECT} WHERE "teamId" = ? AND "name" = ?`, [input.team, input.name]);
    if (existing && existing.description === input.description && existing.examples === examples)
      return { ...toPatternView(existing), outcome: "unchanged" as const };
    const outcome = existing ? ("updated" as const) : ("created" as const);
    if (existing) {
      await tx.run(`UPDATE "Pattern" SET "description" = ?, "examples" = ?, "author" = ?, "updatedAt" = ? WHERE "pk" = ?`, [
        input.description,
        examples,
        actor.name,
        tx.now,
        existing.pk,
      ]);
    } else {
      await tx.run(`INSERT INTO "Pattern" ("teamId","name","description","examples","author","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?)`, [
        input.team,
        input.name,
        input.description,
        examples,
        actor.name,
        tx.now,
        tx.now,
      ]);
    }
    await tx.emit({
      teamId: input.team,
      type: "pattern.registered",
      subject: `pattern:${input.name}`,
      payload: { name: input.name, outcome, author: actor.name },
    });
    const row = (await tx.get<PatternRow>(`${PATTERN_SELECT} WHERE "teamId" = ? AND "name" = ?`, [input.team, input.name]))!;
    return { ...toPatternView(row), outcome };
  });
}

export async function getPattern({ db }: DomainDeps, input: PatternRefInput): Promise<PatternView> {
  const row = await db.read((sql) => sql.get<PatternRow>(`${PATTERN_SELECT} WHERE "teamId" = ? AND "name" = ?`, [input.team, input.name]));
  if (!row) throw notFound("pattern", input.name, "name");
  return toPatternView(row);
}

/** By name; the next page starts after `cursor` (the last name of the previous page). */
export async function listPatterns({ db }: DomainDeps, input: ListPatternsInput): Promise<PatternPage> {
  const after = input.cursor === undefined ? "" : `AND "name" > ?`;
  const rows = await db.read((sql) =>
    sql.all<PatternRow>(
      `${PATTERN_SELECT} WHERE "teamId" = ? ${after} ORDER BY "name" LIMIT ?`,
      input.cursor === undefined ? [input.team, input.limit + 1] : [input.team, input.cursor, input.limit + 1],
    ),
  );
  const page = rows.slice(0, input.limit);
  return { items: page.map(toPatternView), nextCursor: rows.length > input.limit ? page[page.length - 1].name : null };
}
