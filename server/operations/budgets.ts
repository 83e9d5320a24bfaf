/** Budgets (docs/budgets.md) and the usage limits of the accounts sessions run on (docs/limits.md). */
import { BUDGET_PERIODS, BUDGET_SCOPES } from "../../lib/api/budgets.ts";
import { listBudgets, ownBudgets, setBudget } from "../domain/budgets/budgets.service.ts";
import { accountHolds, releaseAccount } from "../domain/accounts/limits.ts";
import { area } from "./define.ts";
import { ADMINISTRATION, TEAM } from "./fields.ts";

/** Team, member and contract budgets: a member reads its own; the operator (or a contract's assigner, within its own) sets them. */
export const budgets = area("budgets", {
  own: {
    may: "member",
    serve: ({ deps }, a, i) => ownBudgets(deps, a, i),
    mcp: {
      name: "budget_get",
      title: "Your budgets",
      description:
        "The budgets that apply to you: your team's, your own, and those of the contracts assigned to you, each with what is spent and left in its window. " +
        "When one is used up, no turn charged to it starts (your session waits as 'blocked: budget') until the operator raises it.",
      describe: { team: TEAM },
    },
  },
  set: {
    may: { "scope: contract": "budget.set_contract", otherwise: "budget.set" },
    serve: ({ deps }, a, i) => setBudget(deps, a, i),
    mcp: {
      name: "budget_set",
      title: "Set a budget",
      description:
        "Set or change a budget in US dollars (amountUsd) or in tokens (amountTokens: input + cache writes + output); give exactly one. A target may have one of each. The operator sets team and member budgets; the assigner of a contract may set that contract's budget within what its own budget has left. " +
        "A change lets turns waiting as 'blocked: budget' start.",
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
    },
  },
  list: {
    may: "budget.list",
    serve: ({ deps }, a, i) => listBudgets(deps, a, i),
    mcp: { none: `${ADMINISTRATION}; an agent reads its own with budget_get` },
  },
});

/** Usage limits: the accounts' holds and warnings, and a person's release of a hold. */
export const limits = area("limits", {
  list: {
    may: "member",
    serve: ({ deps }, _, i) => deps.db.read((sql) => accountHolds(sql, i.team)),
    mcp: {
      name: "account_limits",
      title: "Usage limits",
      description:
        "The accounts the team's sessions run on whose usage window is used up (limited: their turns wait until resetsAt, then go again in order) " +
        "or filling up (warning), with the sessions each holds.",
      describe: { team: TEAM },
    },
  },
  release: {
    may: "account.release",
    serve: ({ deps, info }, a, i) => releaseAccount(deps, a, i, info.maxLiveSessions),
    mcp: {
      name: "account_release",
      title: "Release a usage-limit hold",
      description:
        "Send the turns a used-up account holds now instead of at the reset (they may hit the limit again), or with cancel: true cancel them. " +
        "The operator and the leads of the held sessions' teams only.",
      describe: { account: "The account id, as account_limits lists it.", cancel: "true: cancel the waiting turns instead of sending them." },
    },
  },
});
