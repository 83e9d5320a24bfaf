import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

/** What a budget limits: the whole team, one member, or one contract (docs/budgets.md). */
export const BUDGET_SCOPES = ["team", "member", "contract"] as const;
export const BudgetScope = z.enum(BUDGET_SCOPES, { error: `must be one of ${BUDGET_SCOPES.join(", ")}` });
export type BudgetScope = z.infer<typeof BudgetScope>;

/** `month`: a calendar month in UTC; spending starts again from zero on the 1st. */
export const BUDGET_PERIODS = ["lifetime", "month"] as const;
export const BudgetPeriod = z.enum(BUDGET_PERIODS, { error: `must be one of ${BUDGET_PERIODS.join(", ")}` });
export type BudgetPeriod = z.infer<typeof BudgetPeriod>;

/** What a budget is counted in: US dollars, or tokens (input + cache writes + output, docs/budgets.md). */
export const BUDGET_UNITS = ["usd", "tokens"] as const;
export const BudgetUnit = z.enum(BUDGET_UNITS, { error: `must be one of ${BUDGET_UNITS.join(", ")}` });
export type BudgetUnit = z.infer<typeof BudgetUnit>;

/** The most one budget may hold: a guard against a typo (10000 for 100.00), not a policy. */
export const MAX_BUDGET_USD = 100_000;
/** The same guard for tokens; it also keeps the amount inside a 32-bit column. */
export const MAX_BUDGET_TOKENS = 1_000_000_000;

const Amount = z
  .number({ error: "must be a number (US dollars)" })
  .refine(Number.isFinite, { error: "must be a finite number" })
  .min(0, { error: "must not be negative" })
  .max(MAX_BUDGET_USD, { error: `must be at most ${MAX_BUDGET_USD}` });

// At least one token: a token budget exists for subscription users to ration work, and 0 of it is a typo (docs/budgets.md).
const Tokens = z
  .number({ error: "must be a number (tokens)" })
  .int({ error: "must be a whole number of tokens" })
  .min(1, { error: "must be at least 1 token" })
  .max(MAX_BUDGET_TOKENS, { error: `must be at most ${MAX_BUDGET_TOKENS}` });

const WarnAt = z
  .number({ error: "must be a number between 0 and 1 (0.8 warns at 80%)" })
  .gt(0, { error: "must be more than 0" })
  .lt(1, { error: "must be less than 1 (the warning comes before the budget is used up)" });

/**
 * Sets (creates or changes) one budget. `target` names the member or the contract; a team budget
 * has none. `onExceed` applies to contracts only: `fail` (the default) fails the contract with
 * reason `budget` when it is used up, `pause` keeps it and makes its turns wait. Exactly one of
 * `amountUsd` and `amountTokens` is given: it says the budget's unit, and a target may have one
 * budget of each unit.
 */
export const SetBudgetInput = z
  .strictObject({
    team: TeamParam,
    scope: BudgetScope,
    target: z.string({ error: "must be a string" }).optional(),
    amountUsd: Amount.optional(),
    amountTokens: Tokens.optional(),
    period: BudgetPeriod.default("lifetime"),
    warnAt: WarnAt.default(0.8),
    onExceed: z.enum(["fail", "pause"], { error: "must be fail or pause" }).optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.amountUsd === undefined) === (b.amountTokens === undefined))
      ctx.addIssue({
        code: "custom",
        path: [b.amountUsd === undefined ? "amountUsd" : "amountTokens"],
        message:
          b.amountUsd === undefined
            ? "is required, or amountTokens (a budget has one amount: US dollars or tokens)"
            : "must be left out when amountUsd is given (a budget has one amount: set a token budget on its own)",
      });
    if (b.scope === "team") {
      if (b.target !== undefined)
        ctx.addIssue({ code: "custom", path: ["target"], message: "must be left out for a team budget (it applies to the team itself)" });
    } else if (b.target === undefined) {
      ctx.addIssue({
        code: "custom",
        path: ["target"],
        message: `is required for a ${b.scope} budget (the ${b.scope === "member" ? "member's name" : "contract's id"})`,
      });
    } else {
      const rule = (b.scope === "member" ? MemberName : EntityId).safeParse(b.target);
      if (!rule.success) ctx.addIssue({ code: "custom", path: ["target"], message: rule.error.issues[0]!.message });
    }
    if (b.onExceed !== undefined && b.scope !== "contract") ctx.addIssue({ code: "custom", path: ["onExceed"], message: "applies to contract budgets only" });
  });
export type SetBudgetInput = z.infer<typeof SetBudgetInput>;

/** The unit a budget input sets: the one amount it gives. */
export const unitOf = (b: Pick<SetBudgetInput, "amountTokens">): BudgetUnit => (b.amountTokens === undefined ? "usd" : "tokens");

export const ListBudgetsInput = z.strictObject({ team: TeamParam, scope: BudgetScope.optional() });
export type ListBudgetsInput = z.infer<typeof ListBudgetsInput>;

/** The budgets that apply to the caller itself: its team's, its own, and those of the contracts assigned to it. */
export const OwnBudgetsInput = z.strictObject({ team: TeamParam });
export type OwnBudgetsInput = z.infer<typeof OwnBudgetsInput>;

// ── Responses ──

export const BudgetView = z.object({
  team: z.string(),
  scope: BudgetScope,
  /** null for a team budget. */
  target: z.string().nullable(),
  unit: BudgetUnit,
  /** A usd budget's amount; null for a tokens budget. */
  amountUsd: z.number().nullable(),
  /** A tokens budget's amount; null for a usd budget. */
  amountTokens: z.number().nullable(),
  period: BudgetPeriod,
  warnAt: z.number(),
  /** Contract budgets only; null for the others. */
  onExceed: z.enum(["fail", "pause"]).nullable(),
  /** "lifetime" or the month counted now, e.g. "2026-11". */
  window: z.string(),
  /** Both figures whatever the unit: a token budget still shows what its tokens cost. */
  spentUsd: z.number(),
  spentTokens: z.number(),
  /** What is left in the budget's unit; null in the other. */
  leftUsd: z.number().nullable(),
  leftTokens: z.number().nullable(),
  usedUp: z.boolean(),
  /** Spent per day over the last 7 days of the window (or the window so far, when younger). */
  burnPerDayUsd: z.number(),
  burnPerDayTokens: z.number(),
  /** A monthly budget's spent at the end of its month at that burn, in its unit; null for lifetime budgets and in the other unit. */
  forecastUsd: z.number().nullable(),
  forecastTokens: z.number().nullable(),
  setBy: z.string(),
  updatedAt: IsoDate,
});
export type BudgetView = z.output<typeof BudgetView>;
