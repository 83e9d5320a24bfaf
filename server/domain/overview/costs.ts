/**
 * What a team's sessions cost so far (§11 overview): the total, per session (the session's running
 * total) and per UTC day (interactions grouped by the day they ended). Days without cost inside
 * the shown range are listed with 0, so a chart of them has no silent gaps, and the range covers
 * at least a week, so a single day still reads as "today against the days before".
 */
import type { Sql } from "../../db/connection.ts";

export type Costs = {
  totalUsd: number;
  perSession: Array<{ name: string; status: string; costUsd: number }>;
  perDay: Array<{ day: string; costUsd: number }>;
};

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

export async function teamCosts(sql: Sql, team: string): Promise<Costs> {
  const total = await sql.get<{ total: number | null }>(`SELECT SUM("costUsd") AS "total" FROM "Session" WHERE "teamId" = ?`, [team]);
  const perSession = await sql.all<Costs["perSession"][number]>(
    `SELECT "name", "status", "costUsd" FROM "Session" WHERE "teamId" = ? AND "costUsd" > 0 ORDER BY "costUsd" DESC, "name" LIMIT ?`,
    [team, COST_SESSIONS],
  );
  // Dates are stored as ISO text in UTC, so the first ten characters are the UTC day.
  const days = await sql.all<{ day: string; costUsd: number }>(
    `SELECT substr(i."endedAt", 1, 10) AS "day", SUM(i."costUsd") AS "costUsd"
     FROM "Interaction" i JOIN "Session" s ON s."pk" = i."sessionPk"
     WHERE s."teamId" = ? AND i."endedAt" IS NOT NULL AND i."costUsd" > 0
     GROUP BY "day" ORDER BY "day"`,
    [team],
  );
  return { totalUsd: total?.total ?? 0, perSession, perDay: fillDays(days) };
}
