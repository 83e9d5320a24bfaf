/**
 * Budgets (docs/budgets.md): rows, their windows and what has been spent in them. Spent is never
 * stored: it is the sum of the cost (or the tokens) of the interactions charged to the budget's
 * scope that ended in its window, so it cannot drift from the interactions it counts. A budget is
 * in one unit, usd or tokens; `amountOf` and `spentOn` answer in that unit.
 */
import type { Sql } from "../../db/connection.ts";
import { EMPTY, sql, type Query } from "../../db/sql.ts";
import type { BudgetRow } from "../../db/rows.ts";
import { dollars, tokens } from "../../../lib/format.ts";
import { BudgetPeriod, BudgetScope, BudgetUnit, BudgetView } from "../../../lib/api/budgets.ts";

const OnExceed = BudgetView.shape.onExceed.unwrap();

/** A budget's row with its enumerated columns checked: they key records (COLUMN, ORDER, spent by unit) and go out in views as they are. */
export type Budget = Omit<BudgetRow, "scope" | "unit" | "period" | "onExceed"> & {
  scope: BudgetScope;
  unit: BudgetUnit;
  period: BudgetPeriod;
  onExceed: NonNullable<BudgetView["onExceed"]>;
};

export const budgetOf = (r: BudgetRow): Budget => ({
  ...r,
  scope: BudgetScope.parse(r.scope),
  unit: BudgetUnit.parse(r.unit),
  period: BudgetPeriod.parse(r.period),
  onExceed: OnExceed.parse(r.onExceed),
});

/** Whom one interaction's cost is charged to besides its session. */
export type Charge = { team: string; member: string | null; contract: string | null };

/** The window counted now: a budget's lifetime, or the calendar month (UTC) `now` falls in. */
export function windowOf(period: BudgetPeriod, now: Date): { key: string; start: Date | null } {
  if (period === "lifetime") return { key: "lifetime", start: null };
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { key: start.toISOString().slice(0, 7), start };
}

const COLUMN: Record<BudgetScope, Query | null> = { team: null, member: sql`"member"`, contract: sql`"contractId"` };

/**
 * The tokens a turn counts against a token budget: new input (uncached and written to the cache)
 * and output. Cache reads are left out: every call re-reads the conversation so far, so counting
 * them would charge a long conversation over and over for text it has already paid for.
 */
export const COUNTED_TOKENS = sql`"inputTokens" + "cacheWriteTokens" + "outputTokens"`;

/** A budget's amount in its own unit. */
export const amountOf = (b: Pick<Budget, "unit" | "amountUsd" | "amountTokens">): number => (b.unit === "tokens" ? b.amountTokens : b.amountUsd) ?? 0;

/** An amount in the budget's unit: "$0.40" or "120k tokens". */
export const inUnit = (b: Pick<Budget, "unit">, n: number) => (b.unit === "tokens" ? tokens(n) : dollars(n));

/** What the budget's scope spent in its current window, in the budget's unit. */
export async function spentOn(s: Sql, b: Budget, now: Date): Promise<number> {
  return (await spentSince(s, b, windowOf(b.period, now).start))[b.unit];
}

/** What the budget's scope spent in its current window, in both units. */
export async function spentBoth(s: Sql, b: Budget, now: Date): Promise<Record<BudgetUnit, number>> {
  return spentSince(s, b, windowOf(b.period, now).start);
}

async function spentSince(s: Sql, b: Budget, start: Date | null): Promise<Record<BudgetUnit, number>> {
  const column = COLUMN[b.scope];
  const r = await s.get<{ usd: number | null; tokens: number | null }>(
    sql`SELECT SUM("costUsd") AS "usd", SUM(${COUNTED_TOKENS}) AS "tokens" FROM "Interaction" WHERE "teamId" = ${b.teamId}${column ? sql` AND ${column} = ${b.target}` : EMPTY}${start ? sql` AND "endedAt" >= ${start}` : EMPTY}`,
  );
  return { usd: r?.usd ?? 0, tokens: r?.tokens ?? 0 };
}

/** 0 below the warning, 1 at or above it, 2 used up. */
export const levelOf = (b: Pick<Budget, "unit" | "amountUsd" | "amountTokens" | "warnAt">, spent: number) =>
  spent >= amountOf(b) ? 2 : spent >= amountOf(b) * b.warnAt ? 1 : 0;

/** "team 'alpha'", "member 'db-dev'", "contract 'schema'"; a token budget says so: "team 'alpha' (tokens)". */
export const budgetLabel = (b: Pick<Budget, "scope" | "target" | "teamId"> & Partial<Pick<Budget, "unit">>) =>
  `${b.scope === "team" ? `team '${b.teamId}'` : `${b.scope} '${b.target}'`}${b.unit === "tokens" ? " (tokens)" : ""}`;

/** "$2.10 spent of $2.00" or "120k tokens spent of 100k tokens", with the month when the budget is monthly. */
export const spentSentence = (b: Budget, spent: number, now: Date) =>
  `${inUnit(b, spent)} spent of ${inUnit(b, amountOf(b))}${b.period === "month" ? ` in ${windowOf("month", now).key}` : ""}`;

const ORDER: Record<BudgetScope, number> = { team: 0, member: 1, contract: 2 };

/** The budgets one charge counts against, in the order team, member, contract (dollars before tokens within one). */
export async function budgetsOf(s: Sql, c: Charge): Promise<Budget[]> {
  const rows = await s.all<BudgetRow>(
    sql`SELECT * FROM "Budget" WHERE "teamId" = ${c.team} AND (("scope" = 'team' AND "target" = '') OR ("scope" = 'member' AND "target" = ${c.member ?? ""}) OR ("scope" = 'contract' AND "target" = ${c.contract ?? ""}))`,
  );
  return rows.map(budgetOf).sort((a, b) => ORDER[a.scope] - ORDER[b.scope] || (a.unit === b.unit ? 0 : a.unit === "usd" ? -1 : 1));
}

export async function findBudget(s: Sql, team: string, scope: BudgetScope, target: string, unit: BudgetUnit): Promise<Budget | undefined> {
  const row = await s.get<BudgetRow>(sql`SELECT * FROM "Budget" WHERE "teamId" = ${team} AND "scope" = ${scope} AND "target" = ${target} AND "unit" = ${unit}`);
  return row && budgetOf(row);
}

const DAY_MS = 24 * 3600 * 1000;
const BURN_DAYS = 7;

/**
 * Burn: what the scope spent per day over the last 7 days of its window (over the window so far,
 * at least an hour of it, when it is younger). Forecast: a monthly budget's spent at the end of
 * its month at that burn; null for a lifetime budget, which has no end.
 */
type Burn = Pick<BudgetView, "burnPerDayUsd" | "burnPerDayTokens" | "forecastUsd" | "forecastTokens">;

async function burnAndForecast(s: Sql, b: Budget, spent: Record<BudgetUnit, number>, now: Date): Promise<Burn> {
  const { start } = windowOf(b.period, now);
  const weekAgo = new Date(now.getTime() - BURN_DAYS * DAY_MS);
  const from = start && start > weekAgo ? start : weekAgo;
  const days = Math.max((now.getTime() - from.getTime()) / DAY_MS, 1 / 24);
  const recent = await spentSince(s, b, from);
  const burn = { burnPerDayUsd: recent.usd / days, burnPerDayTokens: recent.tokens / days };
  if (!start) return { ...burn, forecastUsd: null, forecastTokens: null };
  const daysLeft = (Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1) - now.getTime()) / DAY_MS;
  return {
    ...burn,
    forecastUsd: b.unit === "usd" ? spent.usd + burn.burnPerDayUsd * daysLeft : null,
    forecastTokens: b.unit === "tokens" ? spent.tokens + burn.burnPerDayTokens * daysLeft : null,
  };
}

export async function budgetView(s: Sql, b: Budget, now: Date): Promise<BudgetView> {
  const spent = await spentSince(s, b, windowOf(b.period, now).start);
  const left = Math.max(0, amountOf(b) - spent[b.unit]);
  return {
    team: b.teamId,
    scope: b.scope,
    target: b.scope === "team" ? null : b.target,
    unit: b.unit,
    amountUsd: b.unit === "usd" ? b.amountUsd : null,
    amountTokens: b.unit === "tokens" ? b.amountTokens : null,
    period: b.period,
    warnAt: b.warnAt,
    onExceed: b.scope === "contract" ? b.onExceed : null,
    window: windowOf(b.period, now).key,
    spentUsd: spent.usd,
    spentTokens: spent.tokens,
    leftUsd: b.unit === "usd" ? left : null,
    leftTokens: b.unit === "tokens" ? left : null,
    usedUp: spent[b.unit] >= amountOf(b),
    ...(await burnAndForecast(s, b, spent, now)),
    setBy: b.setBy,
    updatedAt: b.updatedAt,
  };
}

/** A budget with its figures, for readers that need both (the overview orders by the row's id). */
export type BudgetWithView = readonly [Budget, BudgetView];

/** Every budget of a team with its figures, ordered as the budgets page lists them. */
export async function teamBudgets(s: Sql, team: string, now: Date): Promise<BudgetWithView[]> {
  const rows = await s.all<BudgetRow>(sql`SELECT * FROM "Budget" WHERE "teamId" = ${team} ORDER BY "scope" DESC, "target", "unit" DESC`);
  return Promise.all(rows.map(budgetOf).map(async (b) => [b, await budgetView(s, b, now)] as const));
}
