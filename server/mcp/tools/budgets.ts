import { BUDGET_PERIODS, BUDGET_SCOPES } from "../../../lib/api/budgets.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { tool } from "../tool.ts";
import { TEAM } from "./common.ts";

/** Budgets (docs/budgets.md): a member reads its own; the operator (or a contract's assigner, within its own) sets them. */
export const budgetTools = [
  tool({
    name: "budget_get",
    title: "Your budgets",
    description:
      "The budgets that apply to you: your team's, your own, and those of the contracts assigned to you, each with what is spent and left in its window. " +
      "When one is used up, no turn charged to it starts (your session waits as 'blocked: budget') until the operator raises it.",
    endpoint: api.budgets.own,
    describe: { team: TEAM },
  }),
  tool({
    name: "budget_set",
    title: "Set a budget",
    description:
      "Set or change a budget in US dollars (amountUsd) or in tokens (amountTokens: input + cache writes + output); give exactly one. A target may have one of each. The operator sets team and member budgets; the assigner of a contract may set that contract's budget within what its own budget has left. " +
      "A change lets turns waiting as 'blocked: budget' start.",
    endpoint: api.budgets.set,
    describe: {
      team: TEAM,
      scope: `One of ${BUDGET_SCOPES.join(", ")}.`,
      target: "The member's name or the contract's id; leave out for the team.",
      amountUsd: "The amount in US dollars (0 or more). Leave out for a token budget.",
      amountTokens: "The amount in tokens (a whole number, at least 1). Leave out for a dollar budget.",
      period: `One of ${BUDGET_PERIODS.join(", ")} (month: a calendar month in UTC). Default lifetime.`,
      warnAt: "Fraction of the amount at which a warning goes out, between 0 and 1. Default 0.8.",
      onExceed: "Contracts only: fail (default; the contract fails with reason 'budget') or pause (it stays, its turns wait).",
    },
  }),
];
