/**
 * The decision journal (docs/domain.md#continuity): what was decided, why, and what else was considered, per team —
 * the `decision` kind of team wisdom (docs/knowledge.md#wisdom). Entries are append-only and their author is always the
 * caller. Related artifacts and contracts must exist when the decision is recorded, so every link in the journal resolves.
 */
import { join, sql } from "../../db/sql.ts";
import type { WisdomRow } from "../../db/rows.ts";
import type { DecisionPage, DecisionView, ListDecisionsInput, RecordDecisionInput } from "../../../lib/api/continuity.ts";
import type { WisdomView } from "../../../lib/api/knowledge.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { appendInTx, toWisdomView } from "../knowledge/wisdom.service.ts";

export const toDecisionView = (w: WisdomView): DecisionView => ({
  id: w.id,
  team: w.team,
  title: w.title,
  decision: w.body,
  rationale: w.rationale,
  alternatives: w.alternatives,
  related: w.related,
  author: w.author,
  createdAt: w.createdAt,
});

export async function recordDecision({ db }: DomainDeps, actor: Principal, input: RecordDecisionInput): Promise<DecisionView> {
  return db.write("decision.record", actor.name, async (tx) => {
    const entry = await appendInTx(tx, input.team, actor.name, { kind: "decision", ...input, body: input.decision });
    await tx.emit({
      teamId: input.team,
      type: "decision.recorded",
      subject: `decision:${entry.id}`,
      payload: { id: entry.id, title: entry.title, author: entry.author, related: entry.related },
    });
    return toDecisionView(entry);
  });
}

/** Newest first; `since` keeps those recorded at or after that time, `after` those after that id. */
export async function listDecisions({ db }: DomainDeps, input: ListDecisionsInput): Promise<DecisionPage> {
  const where = [sql`"teamId" = ${input.team}`, sql`"kind" = 'decision'`];
  if (input.since !== undefined) where.push(sql`"createdAt" >= ${new Date(input.since)}`);
  if (input.after !== undefined) where.push(sql`"id" > ${input.after}`);
  for (const [kind, ref] of [
    ["artifact", input.artifact],
    ["contract", input.contract],
  ] as const) {
    if (ref === undefined) continue;
    where.push(sql`EXISTS (SELECT 1 FROM "WisdomLink" l WHERE l."wisdomId" = "Wisdom"."id" AND l."kind" = ${kind} AND l."ref" = ${ref})`);
  }
  if (input.cursor !== undefined) where.push(sql`"id" < ${input.cursor}`);
  const rows = await db.read((s) => s.all<WisdomRow>(sql`SELECT * FROM "Wisdom" WHERE ${join(where, " AND ")} ORDER BY "id" DESC LIMIT ${input.limit + 1}`));
  const page = rows.slice(0, input.limit);
  return { items: page.map((r) => toDecisionView(toWisdomView(r))), nextCursor: rows.length > input.limit ? page[page.length - 1].id : null };
}
