/**
 * The reads behind a briefing, one per section. Each takes the event log position of the
 * principal's last checkpoint, or null for a first-time overview, and returns at most
 * BRIEF_ITEMS entries with the total, so a briefing stays short whatever happened.
 */
import { countOf, type Sql } from "../../db/connection.ts";
import type { ArtifactRow, ArtifactVersionRow, ContractRow, EventRow, MessageRow } from "../../db/rows.ts";
import { inList, raw, sql } from "../../db/sql.ts";
import { toHubEvent } from "../events/events.service.ts";
import type { BriefArtifact, BriefContract, BriefMessage, ContractChange, DecisionView, PatternView, Section } from "../../../lib/api/continuity.ts";
import { wisdomSince } from "../knowledge/wisdom.service.ts";
import { toDecisionView } from "./decisions.service.ts";
import { PATTERN_SELECT, toPatternView } from "./patterns.service.ts";

export const BRIEF_ITEMS = 10;
export const BRIEF_MESSAGES = 5;

type ContractNow = Pick<ContractRow, "id" | "title" | "status" | "assignee">;
type NewerVersion = Pick<ArtifactRow, "id" | "type" | "name"> &
  Pick<ArtifactVersionRow, "publisher" | "summary"> & {
    readVersion: number;
    currentVersion: ArtifactVersionRow["version"];
    publishedAt: ArtifactVersionRow["createdAt"];
  };

/** The change an event made to a contract that was the principal's (assigned to it, or reassigned to or from it); else null. */
function toChange(row: EventRow, principal: string): { contractId: string; change: ContractChange } | null {
  const e = toHubEvent(row);
  const by = { by: e.principal, at: e.at };
  switch (e.type) {
    case "contract.created":
      if (e.payload.assignee !== principal) return null;
      return { contractId: e.payload.id, change: { event: "created", from: null, to: e.payload.status, reason: null, ...by } };
    case "contract.status_changed":
      if (e.payload.assignee !== principal) return null;
      return { contractId: e.payload.id, change: { event: "status_changed", from: e.payload.from, to: e.payload.to, reason: e.payload.reason, ...by } };
    case "contract.reassigned":
      if (e.payload.from !== principal && e.payload.to !== principal) return null;
      return { contractId: e.payload.id, change: { event: "reassigned", from: e.payload.from, to: e.payload.to, reason: null, ...by } };
    default:
      throw new Error(`event ${e.id} (${e.type}) is not a change of a contract`);
  }
}

/**
 * Since a checkpoint: contracts that were the principal's when they were created, changed status
 * or were reassigned (to it or away from it), most recently changed first, with their status now.
 * Without one: its open contracts.
 */
export async function contractsFor(s: Sql, team: string, principal: string, after: number | null): Promise<Section<BriefContract>> {
  if (after === null) {
    const open = await s.all<ContractNow>(
      sql`SELECT "id","title","status","assignee" FROM "Contract" WHERE "teamId" = ${team} AND "assignee" = ${principal} AND "status" <> 'completed' ORDER BY "updatedAt" DESC, "pk" DESC`,
    );
    return { items: open.slice(0, BRIEF_ITEMS).map((c) => ({ ...c, changes: [] })), total: open.length };
  }
  // The payload test runs here, not in SQL: reading a JSON field is spelled differently by each database.
  const events = await s.all<EventRow>(
    sql`SELECT * FROM "Event" WHERE "teamId" = ${team} AND "id" > ${after} AND "type" IN ('contract.created','contract.status_changed','contract.reassigned') ORDER BY "id" DESC`,
  );
  const byContract = new Map<string, ContractChange[]>();
  for (const e of events) {
    const mine = toChange(e, principal);
    if (!mine) continue;
    const { contractId, change } = mine;
    const changes = byContract.get(contractId) ?? [];
    if (changes.length < BRIEF_ITEMS) changes.unshift(change);
    byContract.set(contractId, changes);
  }
  const ids = [...byContract.keys()].slice(0, BRIEF_ITEMS);
  const now = ids.length
    ? await s.all<ContractNow>(sql`SELECT "id","title","status","assignee" FROM "Contract" WHERE "teamId" = ${team} AND "id" IN ${inList(ids)}`)
    : [];
  const current = new Map(now.map((c) => [c.id, c]));
  const items = ids.map((id) => {
    const c = current.get(id);
    return { id, title: c?.title ?? null, status: c?.status ?? null, assignee: c?.assignee ?? null, changes: byContract.get(id)! };
  });
  return { items, total: byContract.size };
}

/**
 * Artifacts the principal read whose current version is newer than the newest it read. Versions
 * it published itself do not count: it knows what it wrote.
 */
export async function newerThanRead(s: Sql, team: string, principal: string): Promise<Section<BriefArtifact>> {
  const rows = await s.all<NewerVersion>(
    sql`WITH "reads" AS (
       SELECT v."artifactPk" AS "pk", MAX(v."version") AS "readVersion" FROM "ArtifactRead" r JOIN "ArtifactVersion" v ON v."seq" = r."seq"
       WHERE r."reader" = ${principal} GROUP BY v."artifactPk")
     SELECT a."id", a."type", a."name", rd."readVersion", cv."version" AS "currentVersion", cv."publisher", cv."summary", cv."createdAt" AS "publishedAt"
     FROM "reads" rd JOIN "Artifact" a ON a."pk" = rd."pk"
     JOIN "ArtifactVersion" cv ON cv."artifactPk" = a."pk"
       AND cv."version" = (SELECT MAX(x."version") FROM "ArtifactVersion" x WHERE x."artifactPk" = a."pk" AND x."status" = 'active')
     WHERE a."teamId" = ${team} AND a."archivedAt" IS NULL AND cv."version" > rd."readVersion"
       AND EXISTS (SELECT 1 FROM "ArtifactVersion" n WHERE n."artifactPk" = a."pk" AND n."status" = 'active' AND n."version" > rd."readVersion" AND n."publisher" <> ${principal})
     ORDER BY cv."seq" DESC`,
  );
  return { items: rows.slice(0, BRIEF_ITEMS), total: rows.length };
}

/** Unread, not archived: the count and the oldest few. */
export async function unreadMessages(s: Sql, team: string, principal: string): Promise<{ unread: number; first: BriefMessage[] }> {
  const where = sql`"teamId" = ${team} AND "recipient" = ${principal} AND "readAt" IS NULL AND "archivedAt" IS NULL`;
  const { n } = (await s.get<{ n: number }>(sql`SELECT COUNT(*) AS "n" FROM "Message" WHERE ${where}`))!;
  const first = await s.all<Pick<MessageRow, "id" | "sender" | "kind" | "text" | "createdAt">>(
    sql`SELECT "id","sender","kind","text","createdAt" FROM "Message" WHERE ${where} ORDER BY "id" LIMIT ${BRIEF_MESSAGES}`,
  );
  return { unread: n, first: first.map(({ createdAt, ...m }) => ({ ...m, at: createdAt })) };
}

/** Decisions recorded since `first` (firstWisdomAfter), newest first. */
export async function decisionsSince(s: Sql, team: string, first: number): Promise<Section<DecisionView>> {
  const since = await wisdomSince(s, team, first, ["decision"], BRIEF_ITEMS);
  return { items: since.items.map(toDecisionView).reverse(), total: since.total };
}

/** Patterns registered or changed since `first`, latest change first; for a first-time overview (`first` 0), all of them by name. */
export async function patternsSince(s: Sql, team: string, first: number): Promise<Section<PatternView>> {
  if (first === Infinity) return { items: [], total: 0 };
  const from = sql`${PATTERN_SELECT} AND w."teamId" = ${team} AND w."id" >= ${first}`;
  const order = first === 0 ? raw(`w."title"`) : raw(`w."id" DESC`);
  const rows = await s.all<Parameters<typeof toPatternView>[0]>(sql`${from} ORDER BY ${order} LIMIT ${BRIEF_ITEMS}`);
  return { items: rows.map(toPatternView), total: await countOf(s, from) };
}
