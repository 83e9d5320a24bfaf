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

/** The most one budget may hold: a guard against a typo (10000 for 100.00), not a policy. */
export const MAX_BUDGET_USD = 100_000;

const Amount = z
  .number({ error: "must be a number (US dollars)" })
  .refine(Number.isFinite, { error: "must be a finite number" })
  .min(0, { error: "must not be negative" })
  .max(MAX_BUDGET_USD, { error: `must be at most ${MAX_BUDGET_USD}` });

const WarnAt = z
  .number({ error: "must be a number between 0 and 1 (0.8 warns at 80%)" })
  .gt(0, { error: "must be more than 0" })
  .lt(1, { error: "must be less than 1 (the warning comes before the budget is used up)" });

/**
 * Sets (creates or changes) one budget. `target` names the member or the contract; a team budget
 * has none. `onExceed` applies to contracts only: `fail` (the default) fails the contract with
 * reason `budget` when it is used up, `pause` keeps it and makes its turns wait.
 */
export const SetBudgetInput = z
  .strictObject({
    team: TeamParam,
    scope: BudgetScope,
    target: z.string({ error: "must be a string" }).optional(),
    amountUsd: Amount,
    period: BudgetPeriod.default("lifetime"),
    warnAt: WarnAt.default(0.8),
    onExceed: z.enum(["fail", "pause"], { error: "must be fail or pause" }).optional(),
  })
  .superRefine((b, ctx) => {
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
  amountUsd: z.number(),
  period: BudgetPeriod,
  warnAt: z.number(),
  /** Contract budgets only; null for the others. */
  onExceed: z.enum(["fail", "pause"]).nullable(),
  /** "lifetime" or the month counted now, e.g. "2026-11". */
  window: z.string(),
  spentUsd: z.number(),
  leftUsd: z.number(),
  usedUp: z.boolean(),
  /** Spent per day over the last 7 days of the window (or the window so far, when younger). */
  burnPerDayUsd: z.number(),
  /** A monthly budget's spent at the end of its month at that burn; null for lifetime budgets. */
  forecastUsd: z.number().nullable(),
  setBy: z.string(),
  updatedAt: IsoDate,
});
export type BudgetView = z.output<typeof BudgetView>;
