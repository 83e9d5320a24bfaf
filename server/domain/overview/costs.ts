/**
 * What a team's sessions cost so far (docs/overview.md): the total, per session (the session's running
 * total), per member and per contract (the interactions charged to them, docs/budgets.md), per
 * model (the sessions' totals by the model their CLI reported) and per UTC day (interactions
 * grouped by the day they ended), and every budget with what it has left. Days without cost inside
 * the shown range are listed with 0, so a chart of them has no silent gaps, and the range covers at
 * least a week, so a single day still reads as "today against the days before".
 */
import type { Sql } from "../../db/connection.ts";
import { raw, sql } from "../../db/sql.ts";
import type { InteractionRow, SessionRow } from "../../db/rows.ts";
import type { Costs, ScopeCost } from "../../../lib/api/overview.ts";
import type { BudgetWithView } from "../budgets/budgets.repo.ts";

// A chart stays readable with this many bars; the total still counts everything.
export const COST_SESSIONS = 20;
export const COST_DAYS = 30;
export const MIN_COST_DAYS = 7;

const DAY_MS = 24 * 3600 * 1000;

/** Consecutive days ending at the last one with cost, from 7 to 30 of them, zeros filled in. */
export function fillDays(rows: Array<{ day: string; costUsd: number }>): Costs["perDay"] {
  if (rows.length === 0) return [];
  const byDay = new Map(rows.map((r) => [r.day, r.costUsd]));
  const last = Date.parse(`${rows[rows.length - 1].day}T00:00:00Z`);
  const first = Math.min(Math.max(Date.parse(`${rows[0].day}T00:00:00Z`), last - (COST_DAYS - 1) * DAY_MS), last - (MIN_COST_DAYS - 1) * DAY_MS);
  const out: Costs["perDay"] = [];
  for (let t = first; t <= last; t += DAY_MS) {
    const day = new Date(t).toISOString().slice(0, 10);
    out.push({ day, costUsd: byDay.get(day) ?? 0 });
  }
  return out;
}

/** `budgets`: the team's budgets with their figures, worked out once per overview (./overview.service.ts). */
export async function teamCosts(s: Sql, team: string, budgets: BudgetWithView[]): Promise<Costs> {
  const total = await s.get<{ total: number | null }>(sql`SELECT SUM("costUsd") AS "total" FROM "Session" WHERE "teamId" = ${team}`);
  const perSession = await s.all<Pick<SessionRow, "name" | "status" | "costUsd">>(
    sql`SELECT "name", "status", "costUsd" FROM "Session" WHERE "teamId" = ${team} AND "costUsd" > 0 ORDER BY "costUsd" DESC, "name" LIMIT ${COST_SESSIONS}`,
  );
  return {
    totalUsd: total?.total ?? 0,
    perSession,
    perMember: await scopeCosts(s, team, "member", "member", budgets),
    perContract: await scopeCosts(s, team, "contract", "contractId", budgets),
    perModel: await s.all<Costs["perModel"][number]>(
      sql`SELECT COALESCE("model", 'default') AS "model", COUNT(*) AS "sessions", SUM("costUsd") AS "costUsd"
       FROM "Session" WHERE "teamId" = ${team} AND "costUsd" > 0 GROUP BY COALESCE("model", 'default') ORDER BY "costUsd" DESC, "model"`,
    ),
    perRuntime: await s.all<Costs["perRuntime"][number]>(
      sql`SELECT "runtime", COUNT(*) AS "sessions", SUM("costUsd") AS "costUsd"
       FROM "Session" WHERE "teamId" = ${team} AND "costUsd" > 0 GROUP BY "runtime" ORDER BY "costUsd" DESC, "runtime"`,
    ),
    perDay: fillDays(await costDays(s, team)),
    budgets: budgets.map(([, v]) => v),
  };
}

const dayOf = (at: Date | string) => new Date(at).toISOString().slice(0, 10);

/**
 * Cost per UTC day over the days fillDays shows: the day is taken in code from the interactions
 * of those days, since each database spells "the date part of a timestamp" its own way.
 */
async function costDays(s: Sql, team: string): Promise<Array<{ day: string; costUsd: number }>> {
  const last = await s.get<{ at: Date | string | null }>(
    sql`SELECT MAX(i."endedAt") AS "at" FROM "Interaction" i JOIN "Session" s ON s."pk" = i."sessionPk" WHERE s."teamId" = ${team} AND i."costUsd" > 0`,
  );
  if (!last?.at) return [];
  const from = new Date(Date.parse(`${dayOf(last.at)}T00:00:00Z`) - (COST_DAYS - 1) * DAY_MS);
  const rows = await s.all<Pick<InteractionRow, "costUsd"> & { endedAt: NonNullable<InteractionRow["endedAt"]> }>(
    sql`SELECT i."endedAt", i."costUsd" FROM "Interaction" i JOIN "Session" s ON s."pk" = i."sessionPk"
     WHERE s."teamId" = ${team} AND i."endedAt" >= ${from} AND i."costUsd" > 0 ORDER BY i."endedAt"`,
  );
  const byDay = new Map<string, number>();
  for (const r of rows) byDay.set(dayOf(r.endedAt), (byDay.get(dayOf(r.endedAt)) ?? 0) + r.costUsd);
  return [...byDay].map(([day, costUsd]) => ({ day, costUsd }));
}

/** Every member (contract) that spent something or has a budget, the most expensive first. */
async function scopeCosts(
  s: Sql,
  team: string,
  scope: "member" | "contract",
  column: "member" | "contractId",
  budgets: BudgetWithView[],
): Promise<ScopeCost[]> {
  const c = raw(`"${column}"`);
  const spent = await s.all<{ name: NonNullable<InteractionRow[typeof column]>; costUsd: number }>(
    sql`SELECT ${c} AS "name", SUM("costUsd") AS "costUsd" FROM "Interaction" WHERE "teamId" = ${team} AND ${c} IS NOT NULL GROUP BY ${c} HAVING SUM("costUsd") > 0`,
  );
  const rows = new Map<string, ScopeCost>(spent.map((r) => [r.name, { name: r.name, costUsd: r.costUsd, window: "lifetime", budgetUsd: null }]));
  // The bars are dollars: a token budget has no line on them (the budget list beside them shows it).
  for (const [b, v] of budgets) {
    if (b.scope === scope && v.unit === "usd") rows.set(b.target, { name: b.target, costUsd: v.spentUsd, window: v.window, budgetUsd: v.amountUsd ?? 0 });
  }
  return [...rows.values()].sort((a, b) => b.costUsd - a.costUsd || a.name.localeCompare(b.name)).slice(0, COST_SESSIONS);
}
