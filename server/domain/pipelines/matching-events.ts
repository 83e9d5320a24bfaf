/**
 * The logged events a trigger would have fired on, its filters included, newest first: the dry run's list of past
 * events to try a rule on. Looks through the log of the trigger's event type a page at a time, so an old match is
 * found however many newer events of other kinds there are, and stops after SCAN_LIMIT events of that type.
 */
import type { EventRow } from "../../db/rows.ts";
import { sql } from "../../db/sql.ts";
import type { HubEvent } from "../../events/types.ts";
import type { MatchingEvents, MatchingEventsInput } from "../../../lib/api/pipelines.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { eventFor } from "../auth/visibility.ts";
import { toHubEvent } from "../events/events.service.ts";
import { contextsFor, firesOn, LISTENS_TO, passesFilters } from "./triggers.ts";

export const SCAN_LIMIT = 10_000;
const PAGE = 500;

export async function matchingEvents({ db }: DomainDeps, actor: Principal, input: MatchingEventsInput): Promise<MatchingEvents> {
  const { trigger } = input;
  return db.read(async (s) => {
    const found: MatchingEvents["events"] = [];
    let scanned = 0;
    // Above every id: the largest Int (a 32-bit integer column on PostgreSQL, which refuses a larger parameter).
    let before = 2_147_483_647;
    while (scanned < SCAN_LIMIT) {
      const rows = await s.all<EventRow>(
        sql`SELECT * FROM "Event" WHERE "teamId" = ${input.team} AND "type" = ${LISTENS_TO[trigger.type]} AND "id" < ${before} ORDER BY "id" DESC LIMIT ${Math.min(PAGE, SCAN_LIMIT - scanned)}`,
      );
      if (rows.length === 0) return { events: found, scanned, complete: true };
      // Only what the caller may see of the log: a private message between others is not offered.
      const fired = rows.map((row) => eventFor(actor, toHubEvent(row))).filter((e): e is HubEvent => e !== null && firesOn(trigger, e));
      // The cheap checks first, so only the events they leave have their rows read, all of the page's at once.
      const contexts = await contextsFor(s, fired, trigger.type, false);
      const firedById = new Map(fired.map((e, i) => [e.id, { e, ctx: contexts[i] }]));
      for (const row of rows) {
        scanned += 1;
        before = row.id;
        const hit = firedById.get(row.id);
        if (!hit?.ctx || !passesFilters(trigger, hit.ctx)) continue;
        const { e, ctx } = hit;
        found.push({ id: e.id, type: e.type, subject: e.subject, principal: e.principal, to: ctx.subject.to ?? null, at: e.at });
        if (found.length === input.limit) return { events: found, scanned, complete: false };
      }
    }
    return { events: found, scanned, complete: false };
  });
}
