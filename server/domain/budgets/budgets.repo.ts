/**
 * Budgets (docs/budgets.md): rows, their windows and what has been spent in them. Spent is never
 * stored: it is the sum of the cost of the interactions charged to the budget's scope that ended
 * in its window, so it cannot drift from the interactions it counts.
 */
import type { Sql } from "../../db/connection.ts";
import { dollars } from "../../../lib/format.ts";
import type { BudgetPeriod, BudgetScope, BudgetView } from "../../../lib/api/budgets.ts";

export type BudgetRow = {
  id: number;
  teamId: string;
  scope: BudgetScope;
  target: string;
  amountUsd: number;
  period: BudgetPeriod;
  warnAt: number;
  onExceed: "fail" | "pause";
  warned: number;
  warnedWindow: string | null;
  setBy: string;
  createdAt: Date;
  updatedAt: Date;
};

/** Whom one interaction's cost is charged to besides its session. */
export type Charge = { team: string; member: string | null; contract: string | null };

/** The window counted now: a budget's lifetime, or the calendar month (UTC) `now` falls in. */
export function windowOf(period: BudgetPeriod, now: Date): { key: string; start: Date | null } {
  if (period === "lifetime") return { key: "lifetime", start: null };
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { key: start.toISOString().slice(0, 7), start };
}

const COLUMN: Record<BudgetScope, string | null> = { team: null, member: "member", contract: "contractId" };

export async function spentOn(sql: Sql, b: BudgetRow, now: Date): Promise<number> {
  return spentSince(sql, b, windowOf(b.period, now).start);
}

async function spentSince(sql: Sql, b: BudgetRow, start: Date | null): Promise<number> {
  const column = COLUMN[b.scope];
  const r = await sql.get<{ spent: number | null }>(
    `SELECT SUM("costUsd") AS "spent" FROM "Interaction" WHERE "teamId" = ?${column ? ` AND "${column}" = ?` : ""}${start ? ` AND "endedAt" >= ?` : ""}`,
    [b.teamId, ...(column ? [b.target] : []), ...(start ? [start] : [])],
  );
  return r?.spent ?? 0;
}

/** 0 below the warning, 1 at or above it, 2 used up. */
export const levelOf = (b: Pick<BudgetRow, "amountUsd" | "warnAt">, spent: number) => (spent >= b.amountUsd ? 2 : spent >= b.amountUsd * b.warnAt ? 1 : 0);

/** "team 'alpha'", "member 'db-dev'", "contract 'schema'". */
export const budgetLabel = (b: Pick<BudgetRow, "scope" | "target" | "teamId">) => (b.scope === "team" ? `team '${b.teamId}'` : `${b.scope} '${b.target}'`);

/** "$2.10 spent of $2.00", with the month when the budget is monthly. */
export const spentSentence = (b: BudgetRow, spent: number, now: Date) =>
  `${dollars(spent)} spent of ${dollars(b.amountUsd)}${b.period === "month" ? ` in ${windowOf("month", now).key}` : ""}`;

/** The budgets one charge counts against, in the order team, member, contract. */
export async function budgetsOf(sql: Sql, c: Charge): Promise<BudgetRow[]> {
  const rows = await sql.all<BudgetRow>(
    `SELECT * FROM "Budget" WHERE "teamId" = ? AND (("scope" = 'team' AND "target" = '') OR ("scope" = 'member' AND "target" = ?) OR ("scope" = 'contract' AND "target" = ?))`,
    [c.team, c.member ?? "", c.contract ?? ""],
  );
  const order: Record<BudgetScope, number> = { team: 0, member: 1, contract: 2 };
  return rows.sort((a, b) => order[a.scope] - order[b.scope]);
}

export async function findBudget(sql: Sql, team: string, scope: BudgetScope, target: string): Promise<BudgetRow | undefined> {
  return sql.get<BudgetRow>(`SELECT * FROM "Budget" WHERE "teamId" = ? AND "scope" = ? AND "target" = ?`, [team, scope, target]);
}

const DAY_MS = 24 * 3600 * 1000;
const BURN_DAYS = 7;

/**
 * Burn: what the scope spent per day over the last 7 days of its window (over the window so far,
 * at least an hour of it, when it is younger). Forecast: a monthly budget's spent at the end of
 * its month at that burn; null for a lifetime budget, which has no end.
 */
async function burnAndForecast(sql: Sql, b: BudgetRow, spent: number, now: Date): Promise<{ burnPerDayUsd: number; forecastUsd: number | null }> {
  const { start } = windowOf(b.period, now);
  const weekAgo = new Date(now.getTime() - BURN_DAYS * DAY_MS);
  const from = start && start > weekAgo ? start : weekAgo;
  const days = Math.max((now.getTime() - from.getTime()) / DAY_MS, 1 / 24);
  const burnPerDayUsd = (await spentSince(sql, b, from)) / days;
  if (!start) return { burnPerDayUsd, forecastUsd: null };
  const end = Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1);
  return { burnPerDayUsd, forecastUsd: spent + burnPerDayUsd * ((end - now.getTime()) / DAY_MS) };
}

export async function budgetView(sql: Sql, b: BudgetRow, now: Date): Promise<BudgetView> {
  const spentUsd = await spentOn(sql, b, now);
  return {
    team: b.teamId,
    scope: b.scope,
    target: b.scope === "team" ? null : b.target,
    amountUsd: b.amountUsd,
    period: b.period,
    warnAt: b.warnAt,
    onExceed: b.scope === "contract" ? b.onExceed : null,
    window: windowOf(b.period, now).key,
    spentUsd,
    leftUsd: Math.max(0, b.amountUsd - spentUsd),
    usedUp: spentUsd >= b.amountUsd,
    ...(await burnAndForecast(sql, b, spentUsd, now)),
    setBy: b.setBy,
    updatedAt: b.updatedAt,
  };
}

/** A budget with its figures, for readers that need both (the overview orders by the row's id). */
export type BudgetWithView = readonly [BudgetRow, BudgetView];

/** Every budget of a team with its figures, ordered as the budgets page lists them. */
export async function teamBudgets(sql: Sql, team: string, now: Date): Promise<BudgetWithView[]> {
  const rows = await sql.all<BudgetRow>(`SELECT * FROM "Budget" WHERE "teamId" = ? ORDER BY "scope" DESC, "target"`, [team]);
  return Promise.all(rows.map(async (b) => [b, await budgetView(sql, b, now)] as const));
}
