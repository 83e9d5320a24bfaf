/**
 * Team wisdom (docs/knowledge.md#wisdom): one append-only journal of learnings, decisions, conventions and issues, read
 * newest last. The decision journal and the pattern registry (continuity/) are its `decision` and `convention` kinds
 * and append through `appendInTx`. No code path updates or deletes a row: a correction is a newer entry.
 */
import { z } from "zod";
import { countOf, type Sql } from "../../db/connection.ts";
import { inList, join, raw, sql } from "../../db/sql.ts";
import type { Section } from "../../../lib/api/continuity.ts";
import type { WriteTx } from "../../db/database.ts";
import { DomainError, invalid, invalidField, notFound, type Issue } from "../../errors.ts";
import { ID_PATTERN } from "../../../lib/ids.ts";
import type { AppendWisdomInput, ListWisdomInput, WisdomKind, WisdomPage, WisdomRefInput, WisdomView } from "../../../lib/api/knowledge.ts";
import { WISDOM_KINDS } from "../../../lib/api/knowledge.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { toHubEvent } from "../events/events.service.ts";
import { jsonColumn, stringsOf, type ArtifactRow, type ContractRow, type EventRow, type WisdomRow } from "../../db/rows.ts";

const Related = z.object({ artifacts: z.array(z.string()).default([]), contracts: z.array(z.string()).default([]) });

export const toWisdomView = (r: WisdomRow): WisdomView => ({
  id: r.id,
  team: r.teamId,
  kind: z.enum(WISDOM_KINDS).parse(r.kind),
  title: r.title,
  body: r.body,
  rationale: r.rationale,
  alternatives: stringsOf(r.alternatives),
  examples: stringsOf(r.examples),
  related: jsonColumn(Related, r.related),
  author: r.author,
  createdAt: r.createdAt,
});

async function missingLinks(s: Sql, team: string, related: AppendWisdomInput["related"]): Promise<Issue[]> {
  const issues: Issue[] = [];
  const check = async (field: "artifacts" | "contracts", table: "Artifact" | "Contract", what: string) => {
    const ids = related?.[field] ?? [];
    if (ids.length === 0) return;
    const found = new Set(
      (await s.all<Pick<ArtifactRow | ContractRow, "id">>(sql`SELECT "id" FROM ${raw(`"${table}"`)} WHERE "teamId" = ${team} AND "id" IN ${inList(ids)}`)).map(
        (r) => r.id,
      ),
    );
    for (const [i, id] of ids.entries()) {
      if (!found.has(id)) {
        issues.push({ field: `related.${field}[${i}]`, rule: "exists", message: `${what} '${id}' does not exist in team '${team}'`, received: id });
      }
    }
  };
  await check("artifacts", "Artifact", "artifact");
  await check("contracts", "Contract", "contract");
  return issues;
}

type Entry = Omit<AppendWisdomInput, "team" | "kind"> & { kind: WisdomKind };

/** Appends one entry in the caller's transaction (the caller emits its event); links must resolve. */
export async function appendInTx(tx: WriteTx, team: string, author: string, e: Entry): Promise<WisdomView> {
  await ensureTeam(tx, team);
  if (e.kind === "convention" && !ID_PATTERN.test(e.title))
    throw invalidField("title", "pattern", "a convention's title is its name: lowercase letters, digits, '.', '_' or '-' (e.g. 'error-envelope')", e.title);
  const issues = await missingLinks(tx, team, e.related);
  if (issues.length) throw invalid(issues);
  const related = { artifacts: [...new Set(e.related?.artifacts ?? [])], contracts: [...new Set(e.related?.contracts ?? [])] };
  const row = (await tx.get<WisdomRow>(
    sql`INSERT INTO "Wisdom" ("teamId","kind","title","body","rationale","alternatives","examples","related","author","createdAt") VALUES (${team},${e.kind},${e.title},${e.body},${e.rationale ?? ""},${JSON.stringify(e.alternatives ?? [])},${JSON.stringify(e.examples ?? [])},${JSON.stringify(related)},${author},${tx.now}) RETURNING *`,
  ))!;
  for (const a of related.artifacts) await tx.run(sql`INSERT INTO "WisdomLink" ("wisdomId","kind","ref") VALUES (${row.id}, 'artifact', ${a})`);
  for (const c of related.contracts) await tx.run(sql`INSERT INTO "WisdomLink" ("wisdomId","kind","ref") VALUES (${row.id}, 'contract', ${c})`);
  return toWisdomView(row);
}

export async function appendWisdom({ db }: DomainDeps, actor: Principal, input: AppendWisdomInput): Promise<WisdomView> {
  return db.write("wisdom.append", actor.name, async (tx) => {
    const view = await appendInTx(tx, input.team, actor.name, input);
    await tx.emit({
      teamId: input.team,
      type: "wisdom.appended",
      subject: `wisdom:${view.id}`,
      payload: { id: view.id, kind: view.kind, title: view.title, author: view.author },
    });
    return view;
  });
}

/** Oldest first, so the journal reads newest last; `after` continues from the last id seen; `newest` takes the last page. */
export async function listWisdom({ db }: DomainDeps, input: ListWisdomInput): Promise<WisdomPage> {
  const conds = [sql`"teamId" = ${input.team}`, sql`"id" > ${input.after ?? 0}`];
  if (input.kind) conds.push(sql`"kind" = ${input.kind}`);
  const where = join(conds, " AND ");
  if (input.newest) {
    const rows = await db.read((s) => s.all<WisdomRow>(sql`SELECT * FROM "Wisdom" WHERE ${where} ORDER BY "id" DESC LIMIT ${input.limit}`));
    return { items: rows.reverse().map(toWisdomView), nextAfter: null };
  }
  const rows = await db.read((s) => s.all<WisdomRow>(sql`SELECT * FROM "Wisdom" WHERE ${where} ORDER BY "id" LIMIT ${input.limit + 1}`));
  const page = rows.slice(0, input.limit);
  return { items: page.map(toWisdomView), nextAfter: rows.length > input.limit ? page[page.length - 1].id : null };
}

/**
 * The id of the first wisdom entry appended after the event `after` (Infinity: none), found through the events that
 * announce appends, so an entry written in the checkpoint's own millisecond is not mistaken for an older one.
 */
export async function firstWisdomAfter(s: Sql, team: string, after: number | null): Promise<number> {
  if (after === null) return 0;
  // Nearly always the first event names its entry (only old `pattern.registered` events do not): read a few at a time.
  for (let cursor = after; ;) {
    const events = await s.all<EventRow>(
      sql`SELECT * FROM "Event" WHERE "teamId" = ${team} AND "id" > ${cursor} AND "type" IN ('decision.recorded','pattern.registered','wisdom.appended') ORDER BY "id" LIMIT ${raw(String(APPEND_EVENTS_PAGE))}`,
    );
    for (const row of events) {
      const e = toHubEvent(row);
      const id = e.type === "pattern.registered" ? e.payload.entry : e.type === "decision.recorded" || e.type === "wisdom.appended" ? e.payload.id : undefined;
      if (id !== undefined) return id;
    }
    if (events.length < APPEND_EVENTS_PAGE) return Infinity;
    cursor = events[events.length - 1].id;
  }
}

const APPEND_EVENTS_PAGE = 20;

/** Entries of `kinds` appended since `first` (firstWisdomAfter): the newest few, read newest last. */
export async function wisdomSince(s: Sql, team: string, first: number, kinds: readonly WisdomKind[], max: number): Promise<Section<WisdomView>> {
  if (first === Infinity) return { items: [], total: 0 };
  const from = sql`SELECT * FROM "Wisdom" WHERE "teamId" = ${team} AND "kind" IN ${inList(kinds)} AND "id" >= ${first}`;
  const rows = await s.all<WisdomRow>(sql`${from} ORDER BY "id" DESC LIMIT ${max}`);
  return { items: rows.reverse().map(toWisdomView), total: await countOf(s, from) };
}

/**
 * The answer to an edit or a delete of an entry, from any door: wisdom is append-only, so what was learnt stays
 * readable as it was written. An entry that does not exist is `not_found`, like any other id.
 */
export async function refuseWisdomChange({ db }: DomainDeps, input: WisdomRefInput & { change: "edit" | "delete" }): Promise<never> {
  const row = await db.read((s) => s.get<WisdomRow>(sql`SELECT * FROM "Wisdom" WHERE "teamId" = ${input.team} AND "id" = ${input.id}`));
  if (!row) throw notFound("wisdom entry", String(input.id), "id");
  throw new DomainError(
    "illegal_transition",
    `wisdom entry #${input.id} cannot be ${input.change === "edit" ? "edited" : "deleted"}: wisdom is append-only; append a new entry instead ` +
      `(a newer ${row.kind} ${row.kind === "convention" ? `named '${row.title}' replaces it as the convention` : "supersedes it"})`,
    { id: input.id, kind: row.kind, rule: "append_only" },
  );
}
