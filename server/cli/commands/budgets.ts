import type { Command } from "commander";
import type { BudgetView } from "../../../lib/api/budgets.ts";
import { amountOf, inUnit, leftOf, spentOf } from "../../../lib/budget-figures.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";

/** A number when it reads as one; anything else goes to the hub as typed, which says what is wrong with it. */
const asNumber = (text: string | undefined) => (text !== undefined && /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

const line = (b: BudgetView) =>
  `${b.scope === "team" ? `team ${b.team}` : `${b.scope} ${b.target}`}: ${inUnit(b.unit, spentOf(b))} spent of ${inUnit(b.unit, amountOf(b))} (${b.window}), ${inUnit(b.unit, leftOf(b))} left${b.usedUp ? " — used up" : ""}`;

export function register(program: Command) {
  program
    .command("budget-set <scope> [target]")
    .description("set or change a budget on --team: scope team, member <name> or contract <id>, in dollars or tokens (docs/budgets.md)")
    .option("--amount <usd>", "the budget in US dollars")
    .option("--tokens <n>", "the budget in tokens (input + cache writes + output) instead of dollars")
    .option("--period <period>", "lifetime (default) or month (a calendar month, UTC)")
    .option("--warn-at <fraction>", "warn when this fraction is spent (default 0.8)")
    .option("--on-exceed <what>", "contracts only: fail (default) or pause")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ amount?: string; tokens?: string; period?: string; warnAt?: string; onExceed?: string }>) =>
          hub.budgets.set(
            asTyped(api.budgets.set, {
              scope: args[0],
              target: args[1],
              amountUsd: asNumber(opts.amount),
              amountTokens: asNumber(opts.tokens),
              period: opts.period,
              warnAt: asNumber(opts.warnAt),
              onExceed: opts.onExceed,
            }),
          ),
        line,
      ),
    );
  program
    .command("budget-list")
    .description("the budgets of --team with what each has spent and left in its window (--mine: the ones that apply to you)")
    .option("--scope <scope>", "team, member or contract")
    .option("--mine", "only the budgets that apply to the caller")
    .action(
      action(
        ({ hub, opts }: Ctx<{ scope?: string; mine?: boolean }>) =>
          opts.mine ? hub.budgets.own() : hub.budgets.list(asTyped(api.budgets.list, { scope: opts.scope })),
        (list) =>
          list.length === 0
            ? "no budgets"
            : table(
                list.map((b) => ({
                  ...b,
                  target: b.target ?? "",
                  amount: inUnit(b.unit, amountOf(b)),
                  spent: inUnit(b.unit, spentOf(b)),
                  left: inUnit(b.unit, leftOf(b)),
                  state: b.usedUp ? "used up" : spentOf(b) >= amountOf(b) * b.warnAt ? "warning" : "",
                })),
                ["scope", "target", "amount", "spent", "left", "window", "state"],
              ),
      ),
    );
}
