/**
 * Context loading (docs/knowledge.md#context-loading): what a member should know before it starts — the team state,
 * wisdom it has not seen and the cached explorations relevant to its contracts — for the briefing and the
 * start-up prompt of a team member, rendered once here so both say the same thing.
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type ContractRow } from "../../db/rows.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import type { ExplorationView, WisdomKind } from "../../../lib/api/knowledge.ts";
import { normaliseAngle, WISDOM_KINDS } from "../../../lib/api/knowledge.ts";
import type { Briefing } from "../../../lib/api/continuity.ts";
import { formatRef } from "../artifacts/refs.ts";
import { findLatest } from "../continuity/checkpoints.service.ts";
import { explorationsMatching } from "./exploration.service.ts";
import { teamStateOf } from "./state.service.ts";
import { firstWisdomAfter, wisdomSince } from "./wisdom.service.ts";

/** The kebab-case texts of a contract's inputs (keys and string values, at any depth) that angles are matched in. */
function inputTexts(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(normaliseAngle(value));
  else if (Array.isArray(value)) for (const v of value) inputTexts(v, out);
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) {
      out.push(normaliseAngle(k));
      inputTexts(v, out);
    }
  return out;
}

/** Cached explorations whose angle appears in the inputs of the member's open contracts. */
export async function explorationsForContracts(s: Sql, team: string, member: string): Promise<ExplorationView[]> {
  const contracts = await s.all<Pick<ContractRow, "inputs">>(
    sql`SELECT "inputs" FROM "Contract" WHERE "teamId" = ${team} AND "assignee" = ${member} AND "status" NOT IN ('completed','failed')`,
  );
  return explorationsMatching(
    s,
    team,
    contracts.flatMap((c) => inputTexts(jsonColumn(JsonObject, c.inputs))),
  );
}

/** What a member should know: the team state, the wisdom of `kinds` appended since `first` (firstWisdomAfter), its angles. */
export async function knowledgeSince(s: Sql, team: string, member: string, first: number, kinds: readonly WisdomKind[], max: number): Promise<Knowledge> {
  return {
    teamState: (await teamStateOf(s, team, 0)).members,
    lessons: await wisdomSince(s, team, first, kinds, max),
    explorations: await explorationsForContracts(s, team, member),
  };
}

/** A member's start-up knowledge: wisdom of every kind since its last checkpoint (or the newest). */
export async function startupKnowledge(s: Sql, team: string, member: string): Promise<Knowledge> {
  const since = await findLatest(s, team, member, undefined);
  return knowledgeSince(s, team, member, await firstWisdomAfter(s, team, since?.lastEventId ?? null), WISDOM_KINDS, 10);
}

/** One line of a long text, cut to `max` characters, for a model's context. */
export const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

export type Knowledge = Pick<Briefing, "teamState" | "lessons" | "explorations">;

/** Markdown sections (title, lines) for a model's context; empty ones are left out by the caller. */
export function knowledgeSections(k: Knowledge, reader: string): Array<[string, string[]]> {
  const state = k.teamState.map(({ member, role, latest: u }) => {
    const who = `${member}${role ? ` (${role})` : ""}${member === reader ? " — you" : ""}`;
    const ref = u.ref ? `; ref ${formatRef(u.ref)}` : "";
    const lines = [`- ${who}: ${u.status}, ${u.verification} — ${clip(u.task, 160)}${ref}`];
    for (const f of u.keyFindings) lines.push(`  - finding: ${f}`);
    for (const d of u.decisions) lines.push(`  - decided: ${clip(d.decision, 160)} (because ${clip(d.rationale, 160)})`);
    if (u.filesModified.length) lines.push(`  - files: ${u.filesModified.slice(0, 10).join(", ")}${u.filesModified.length > 10 ? ", …" : ""}`);
    return lines.join("\n");
  });
  const lessons = k.lessons.items.map((w) => `- [${w.kind}] ${clip(w.title, 120)} (${w.author}): ${clip(w.body, 240)}`);
  if (k.lessons.total > k.lessons.items.length) lessons.unshift(`- … ${k.lessons.total - k.lessons.items.length} earlier (wisdom_list)`);
  const cache = k.explorations.map((e) => `- ${e.angle} (by ${e.createdBy}): ${clip(e.result, 240)}${e.ref ? ` — see ${formatRef(e.ref)}` : ""}`);
  return [
    [`Team state (${k.teamState.length} members; team_state for history)`, state],
    [`New wisdom (${k.lessons.total})`, lessons],
    [`Explored already — read before exploring (${k.explorations.length})`, cache],
  ];
}

export function knowledgeMarkdown(k: Knowledge, reader: string): string {
  return knowledgeSections(k, reader)
    .filter(([, lines]) => lines.length)
    .map(([title, lines]) => [`## ${title}`, ...lines].join("\n"))
    .join("\n\n");
}
