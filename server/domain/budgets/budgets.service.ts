/**
 * Setting and reading budgets (docs/budgets.md). The operator sets any budget; a member may set
 * the budget of a contract it assigned, up to what its own budget (and its team's) has left.
 * A change is one event, `budget.set`, which also makes the supervisor try turns that were
 * waiting as `blocked: budget` again.
 */
import { invalidField, notFound } from "../../errors.ts";
import { dollars } from "../../../lib/format.ts";
import type { BudgetView, ListBudgetsInput, OwnBudgetsInput, SetBudgetInput } from "../../../lib/api/budgets.ts";
import { authorize, permits } from "../auth/capabilities.ts";
import { findContract } from "../contracts/contracts.repo.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import type { WriteTx } from "../../db/database.ts";
import { budgetLabel, budgetView, findBudget, levelOf, spentOn, windowOf, type BudgetRow } from "./budgets.repo.ts";

/** A member setting a contract's budget spends from its own: at most what its member and team budgets have left. */
async function assertWithinOwn(tx: WriteTx, actor: Principal, team: string, amount: number, current: BudgetRow | undefined): Promise<void> {
  for (const own of [await findBudget(tx, team, "member", actor.name), await findBudget(tx, team, "team", "")]) {
    if (!own) continue;
    // Raising an existing contract budget only needs room for the increase.
    const needed = amount - (current?.amountUsd ?? 0);
    const left = own.amountUsd - (await spentOn(tx, own, tx.now));
    if (needed > left) {
      throw invalidField(
        "amountUsd",
        "within_own_budget",
        `must fit within what ${budgetLabel(own)} has left (${dollars(Math.max(0, left))}); ${dollars(amount)} needs ${dollars(needed)} more`,
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
    const current = await findBudget(tx, input.team, input.scope, target);
    if (input.scope === "contract" && !(await permits(tx, actor, "budget.set", { team: input.team })))
      await assertWithinOwn(tx, actor, input.team, input.amountUsd, current);
    const onExceed = input.onExceed ?? current?.onExceed ?? "fail";
    const draft = { amountUsd: input.amountUsd, warnAt: input.warnAt };
    // What is already spent is not announced again: the notices are for crossing a line from now on.
    const spent = current ? await spentOn(tx, { ...current, ...draft, period: input.period }, tx.now) : 0;
    const warned = levelOf(draft, spent);
    const window = windowOf(input.period, tx.now).key;
    await tx.run(
      `INSERT INTO "Budget" ("teamId","scope","target","amountUsd","period","warnAt","onExceed","warned","warnedWindow","setBy","createdAt","updatedAt") VALUES (?,?,?,?,?,?,?,?,?,?,?,?)
       ON CONFLICT ("teamId","scope","target") DO UPDATE SET "amountUsd" = excluded."amountUsd", "period" = excluded."period", "warnAt" = excluded."warnAt",
         "onExceed" = excluded."onExceed", "warned" = excluded."warned", "warnedWindow" = excluded."warnedWindow", "setBy" = excluded."setBy", "updatedAt" = excluded."updatedAt"`,
      [input.team, input.scope, target, input.amountUsd, input.period, input.warnAt, onExceed, warned, window, actor.name, tx.now, tx.now],
    );
    const row = (await findBudget(tx, input.team, input.scope, target))!;
    const view = await budgetView(tx, row, tx.now);
    await tx.emit({
      teamId: input.team,
      type: "budget.set",
      subject: `budget:${input.scope}:${target}`,
      payload: {
        scope: input.scope,
        target: view.target,
        amountUsd: input.amountUsd,
        previousUsd: current?.amountUsd ?? null,
        period: input.period,
        warnAt: input.warnAt,
        onExceed: view.onExceed,
        spentUsd: view.spentUsd,
        by: actor.name,
      },
    });
    return view;
  });
}

export async function listBudgets({ db }: DomainDeps, actor: Principal, input: ListBudgetsInput): Promise<BudgetView[]> {
  return db.read(async (sql) => {
    await authorize(sql, actor, "budget.list", { team: input.team });
    const rows = await sql.all<BudgetRow>(`SELECT * FROM "Budget" WHERE "teamId" = ?${input.scope ? ` AND "scope" = ?` : ""} ORDER BY "scope" DESC, "target"`, [
      input.team,
      ...(input.scope ? [input.scope] : []),
    ]);
    const now = new Date();
    return Promise.all(rows.map((b) => budgetView(sql, b, now)));
  });
}

/** A member's own view: its team's budget, its own, and those of the contracts assigned to it. */
export async function ownBudgets({ db }: DomainDeps, actor: Principal, input: OwnBudgetsInput): Promise<BudgetView[]> {
  return db.read(async (sql) => {
    const rows = await sql.all<BudgetRow>(
      `SELECT * FROM "Budget" b WHERE b."teamId" = ? AND (b."scope" = 'team' OR (b."scope" = 'member' AND b."target" = ?)
         OR (b."scope" = 'contract' AND EXISTS (SELECT 1 FROM "Contract" c WHERE c."teamId" = b."teamId" AND c."id" = b."target" AND c."assignee" = ?)))
       ORDER BY b."scope" DESC, b."target"`,
      [input.team, actor.name, actor.name],
    );
    const now = new Date();
    return Promise.all(rows.map((b) => budgetView(sql, b, now)));
  });
}
