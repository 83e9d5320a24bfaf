/**
 * A budget view's figures in its own unit (docs/budgets.md): a usd budget's amount is
 * `amountUsd`, a tokens budget's `amountTokens`; every door that shows a budget reads them here
 * so that none compares tokens with dollars.
 */
import type { BudgetUnit, BudgetView } from "./api/budgets.ts";
import { compactCount, dollars, tokens } from "./format.ts";

type Figures = Pick<BudgetView, "unit" | "amountUsd" | "amountTokens" | "spentUsd" | "spentTokens">;

export const amountOf = (b: Pick<BudgetView, "unit" | "amountUsd" | "amountTokens">): number => (b.unit === "tokens" ? b.amountTokens : b.amountUsd) ?? 0;
export const spentOf = (b: Figures): number => (b.unit === "tokens" ? b.spentTokens : b.spentUsd);
export const leftOf = (b: Figures): number => Math.max(0, amountOf(b) - spentOf(b));
export const forecastOf = (b: Pick<BudgetView, "unit" | "forecastUsd" | "forecastTokens">): number | null =>
  b.unit === "tokens" ? b.forecastTokens : b.forecastUsd;
export const burnOf = (b: Pick<BudgetView, "unit" | "burnPerDayUsd" | "burnPerDayTokens">): number =>
  b.unit === "tokens" ? b.burnPerDayTokens : b.burnPerDayUsd;

/** "$0.40" or "120k tokens". */
export const inUnit = (unit: BudgetUnit, n: number) => (unit === "tokens" ? tokens(n) : dollars(n));

/** Spent without its unit where the amount that follows names it: "$0.40" or "120k" (of 500k tokens). */
export const spentFigure = (b: Figures) => (b.unit === "tokens" ? compactCount(spentOf(b)) : dollars(spentOf(b)));

/** "$0.40 of $2.00" or "120k of 500k tokens". */
export const spentOfAmount = (b: Figures) => `${spentFigure(b)} of ${inUnit(b.unit, amountOf(b))}`;

/** Spent as a share of the amount; a budget of 0 is used up at once. */
export const shareOf = (b: Figures) => spentOf(b) / Math.max(amountOf(b), 1e-9);
