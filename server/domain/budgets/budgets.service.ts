/**
 * Setting and reading budgets (docs/budgets.md). The operator sets any budget; a member may set
 * the budget of a contract it assigned, up to what its own budget (and its team's) has left.
 * A change is one event, `budget.set`, which also makes the supervisor try turns that were
 * waiting as `blocked: budget` again.
 */
import { invalidField, notFound } from "../../errors.ts";
import { unitOf, type BudgetUnit, type BudgetView, type ListBudgetsInput, type OwnBudgetsInput, type SetBudgetInput } from "../../../lib/api/budgets.ts";
import { authorize, permits } from "../auth/capabilities.ts";
import { findContract } from "../contracts/contracts.repo.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import type { BudgetRow } from "../../db/rows.ts";
import { amountOf, budgetLabel, budgetOf, budgetView, findBudget, inUnit, levelOf, spentOn, windowOf, type Budget } from "./budgets.repo.ts";

const AMOUNT_FIELD: Record<BudgetUnit, "amountUsd" | "amountTokens"> = { usd: "amountUsd", tokens: "amountTokens" };

/**
 * A member setting a contract's budget spends from its own: at most what its member and team
 * budgets of the same unit have left (a token budget is not measured against dollars).
 */
async function assertWithinOwn(tx: WriteTx, actor: Principal, team: string, unit: BudgetUnit, amount: number, current: Budget | undefined): Promise<void> {
  for (const own of [await findBudget(tx, team, "member", actor.name, unit), await findBudget(tx, team, "team", "", unit)]) {
    if (!own) continue;
    // Raising an existing contract budget only needs room for the increase.
    const needed = amount - (current ? amountOf(current) : 0);
    const left = amountOf(own) - (await spentOn(tx, own, tx.now));
    if (needed > left) {
      throw invalidField(
        AMOUNT_FIELD[unit],
        "within_own_budget",
        `must fit within what ${budgetLabel(own)} has left (${inUnit(own, Math.max(0, left))}); ${inUnit(own, amount)} needs ${inUnit(own, needed)} more`,
        amount,
      );
    }
  }
}

export async function setBudget({ db }: DomainDeps, actor: Principal, input: SetBudgetInput): Promise<BudgetView> {
  return db.write("budget.set", actor.name, async (tx) => {
    const target = input.target ?? "";
    if (input.scope === "contract") {
      const c = await findContract(tx, input.team, target);
      if (!c) throw notFound("contract", target, "target");
      await authorize(tx, actor, "budget.set_contract", { team: input.team, owners: [c.assigner], label: `'${c.id}' (assigner '${c.assigner}')` });
    } else {
      await authorize(tx, actor, "budget.set", { team: input.team });
    }
    await ensureTeam(tx, input.team);
    const unit = unitOf(input);
    const current = await findBudget(tx, input.team, input.scope, target, unit);
    const draft = { unit, amountUsd: input.amountUsd ?? null, amountTokens: input.amountTokens ?? null, warnAt: input.warnAt };
    if (input.scope === "contract" && !(await permits(tx, actor, "budget.set", { team: input.team })))
      await assertWithinOwn(tx, actor, input.team, unit, amountOf(draft), current);
    const onExceed = input.onExceed ?? current?.onExceed ?? "fail";
    // What is already spent is not announced again: the notices are for crossing a line from now on.
    const spent = current ? await spentOn(tx, { ...current, ...draft, period: input.period }, tx.now) : 0;
    const warned = levelOf(draft, spent);
    const window = windowOf(input.period, tx.now).key;
    await tx.run(
      sql`INSERT INTO "Budget" ("teamId","scope","target","unit","amountUsd","amountTokens","period","warnAt","onExceed","warned","warnedWindow","setBy","createdAt","updatedAt")
       VALUES (${input.team},${input.scope},${target},${unit},${draft.amountUsd},${draft.amountTokens},${input.period},${input.warnAt},${onExceed},${warned},${window},${actor.name},${tx.now},${tx.now})
       ON CONFLICT ("teamId","scope","target","unit") DO UPDATE SET "amountUsd" = excluded."amountUsd", "amountTokens" = excluded."amountTokens", "period" = excluded."period",
         "warnAt" = excluded."warnAt", "onExceed" = excluded."onExceed", "warned" = excluded."warned", "warnedWindow" = excluded."warnedWindow", "setBy" = excluded."setBy",
         "updatedAt" = excluded."updatedAt"`,
    );
    const row = (await findBudget(tx, input.team, input.scope, target, unit))!;
    const view = await budgetView(tx, row, tx.now);
    await tx.emit({
      teamId: input.team,
      type: "budget.set",
      subject: `budget:${input.scope}:${target}`,
      payload: {
        scope: input.scope,
        target: view.target,
        unit,
        amountUsd: draft.amountUsd,
        amountTokens: draft.amountTokens,
        previousUsd: current?.amountUsd ?? null,
        previousTokens: current?.amountTokens ?? null,
        period: input.period,
        warnAt: input.warnAt,
        onExceed: view.onExceed,
        spentUsd: view.spentUsd,
        spentTokens: view.spentTokens,
        by: actor.name,
      },
    });
    return view;
  });
}

export async function listBudgets({ db }: DomainDeps, actor: Principal, input: ListBudgetsInput): Promise<BudgetView[]> {
  return db.read(async (s) => {
    await authorize(s, actor, "budget.list", { team: input.team });
    const rows = await s.all<BudgetRow>(
      sql`SELECT * FROM "Budget" WHERE "teamId" = ${input.team}${input.scope ? sql` AND "scope" = ${input.scope}` : EMPTY} ORDER BY "scope" DESC, "target", "unit" DESC`,
    );
    const now = new Date();
    return Promise.all(rows.map((b) => budgetView(s, budgetOf(b), now)));
  });
}

/** A member's own view: its team's budget, its own, and those of the contracts assigned to it. */
export async function ownBudgets({ db }: DomainDeps, actor: Principal, input: OwnBudgetsInput): Promise<BudgetView[]> {
  return db.read(async (s) => {
    const rows = await s.all<BudgetRow>(
      sql`SELECT * FROM "Budget" b WHERE b."teamId" = ${input.team} AND (b."scope" = 'team' OR (b."scope" = 'member' AND b."target" = ${actor.name})
         OR (b."scope" = 'contract' AND EXISTS (SELECT 1 FROM "Contract" c WHERE c."teamId" = b."teamId" AND c."id" = b."target" AND c."assignee" = ${actor.name})))
       ORDER BY b."scope" DESC, b."target", b."unit" DESC`,
    );
    const now = new Date();
    return Promise.all(rows.map((b) => budgetView(s, budgetOf(b), now)));
  });
}
