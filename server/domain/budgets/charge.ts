/**
 * Charging turns to budgets (docs/budgets.md). Every interaction of a session in a team is
 * charged to the team, to the member the session acts as, and to the contract it is working on:
 * the member's contract that was in progress during the turn, else the contract the turn's
 * prompt names (the wake-up notice that started it) while that contract is ready or in progress.
 * Before a turn starts, the same charge is checked against every budget it would count against;
 * after it ends, crossing a budget's warning or its amount is announced once per window.
 */
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import type { ContractRow, SessionRow } from "../../db/rows.ts";
import { deliver } from "../chat/messages.ts";
import { findContract } from "../contracts/contracts.repo.ts";
import { setStatus } from "../contracts/transitions.ts";
import { OPERATOR } from "../principal.ts";
import { amountOf, budgetLabel, budgetsOf, inUnit, levelOf, spentBoth, spentSentence, windowOf, type Budget, type Charge } from "./budgets.repo.ts";

/** The contract status a budget stop leaves a contract that is being worked on. */
export const BUDGET_REASON = "budget";

/**
 * The contract a turn is charged to. `during` (the turn's start, once it has ended) also counts a
 * contract the member started during the turn and finished or failed before it ended.
 */
async function contractOf(s: Sql, team: string, member: string, prompt: string, during: Date | null): Promise<string | null> {
  const working = await s.get<Pick<ContractRow, "id">>(
    sql`SELECT "id" FROM "Contract" WHERE "teamId" = ${team} AND "assignee" = ${member} AND ("status" = 'in_progress'${during ? sql` OR "startedAt" >= ${during}` : EMPTY})
     ORDER BY "startedAt" DESC, "pk" DESC LIMIT 1`,
  );
  if (working) return working.id;
  // Notices name contracts as 'id' (notice-lines.ts); the quotes keep 'api' from matching 'api-v2'.
  const named = await s.get<Pick<ContractRow, "id">>(
    sql`SELECT "id" FROM "Contract" WHERE "teamId" = ${team} AND "assignee" = ${member} AND "status" IN ('ready','in_progress') AND ${prompt} LIKE '%''' || "id" || '''%'
     ORDER BY "pk" LIMIT 1`,
  );
  return named?.id ?? null;
}

type Charged = Pick<SessionRow, "teamId" | "principal" | "name">;

/** Null for a session outside any team: only its own safety net limits it. */
export async function chargeOf(s: Sql, session: Charged, prompt: string, during: Date | null): Promise<Charge | null> {
  if (!session.teamId) return null;
  const member = session.principal ?? session.name;
  return { team: session.teamId, member, contract: await contractOf(s, session.teamId, member, prompt, during) };
}

/** A budget and what its scope has spent in its window, in the budget's unit. */
export type UsedUp = { budget: Budget; spent: number };

/**
 * For each unit, the budget the charge would count against with the least left (the first,
 * team → member → contract, on a tie): dollars first, then tokens; empty without budgets.
 * Dollars and tokens do not compare, so a turn carries one of each to watch while it runs.
 */
export async function tightestBudgets(s: Sql, c: Charge, now: Date): Promise<UsedUp[]> {
  const tightest = new Map<string, UsedUp>();
  for (const budget of await budgetsOf(s, c)) {
    const spent = (await spentBoth(s, budget, now))[budget.unit];
    const seen = tightest.get(budget.unit);
    if (!seen || amountOf(budget) - spent < amountOf(seen.budget) - seen.spent) tightest.set(budget.unit, { budget, spent });
  }
  return [...tightest.values()].sort((a, b) => (a.budget.unit === b.budget.unit ? 0 : a.budget.unit === "usd" ? -1 : 1));
}

export const isUsedUp = (u: UsedUp) => u.spent >= amountOf(u.budget);

/** What the budget had left when the turn started, in its unit. */
export const leftOf = (u: UsedUp) => amountOf(u.budget) - u.spent;

export const BLOCKED_PREFIX = "blocked: budget";

/**
 * "budget: member 'db-dev' had $0.30 left; the turn had spent about $0.40 when it was interrupted",
 * or "… (tokens) had 3k tokens left; the turn had used about 4k tokens …".
 */
export const interruptedSentence = (u: UsedUp, turnSpent: number) =>
  `budget: ${budgetLabel(u.budget)} had ${inUnit(u.budget, Math.max(0, leftOf(u)))} left; the turn had ${u.budget.unit === "tokens" ? "used" : "spent"} about ${inUnit(u.budget, turnSpent)} when it was interrupted`;

/** "blocked: budget — team 'alpha': $10.02 spent of $10.00". */
export const blockedSentence = (u: UsedUp, now: Date) => `${BLOCKED_PREFIX} — ${budgetLabel(u.budget)}: ${spentSentence(u.budget, u.spent, now)}`;

/**
 * After a turn's cost is recorded: each budget it counts against that has now crossed its warning
 * or its amount, for the first time in its window, is announced (event, and a message to the
 * operator and to the member); a contract whose budget is used up fails with reason `budget`
 * unless the operator chose `pause` for it.
 */
export async function afterCharge(tx: WriteTx, c: Charge, session: string): Promise<void> {
  for (const b of await budgetsOf(tx, c)) {
    const both = await spentBoth(tx, b, tx.now);
    const spent = both[b.unit];
    const level = levelOf(b, spent);
    const window = windowOf(b.period, tx.now).key;
    const told = b.warnedWindow === window ? b.warned : 0;
    if (level <= told) continue;
    await tx.run(sql`UPDATE "Budget" SET "warned" = ${level}, "warnedWindow" = ${window} WHERE "id" = ${b.id}`);
    const usedUp = level === 2;
    const label = budgetLabel(b);
    const says = `${spentSentence(b, spent, tx.now)} (${Math.round((spent / Math.max(amountOf(b), Number.EPSILON)) * 100)}%)`;
    const contractStops = usedUp && b.scope === "contract" && b.onExceed === "fail";
    const then = !usedUp
      ? `the warning is set at ${Math.round(b.warnAt * 100)}%.`
      : contractStops
        ? "the contract fails with reason 'budget'; no turn charged to it starts until the operator raises it."
        : "no turn charged to it starts until the operator raises it.";
    const text = `Budget ${usedUp ? "used up" : "warning"}: ${label} has ${says}; ${then}`;
    await tx.emit({
      teamId: c.team,
      type: usedUp ? "budget.exhausted" : "budget.warning",
      subject: `budget:${b.scope}:${b.target}`,
      payload: {
        scope: b.scope,
        target: b.scope === "team" ? null : b.target,
        unit: b.unit,
        amountUsd: b.unit === "usd" ? b.amountUsd : null,
        amountTokens: b.unit === "tokens" ? b.amountTokens : null,
        spentUsd: both.usd,
        spentTokens: both.tokens,
        period: b.period,
        window,
        warnAt: b.warnAt,
        session,
        member: c.member,
        text,
      },
    });
    // Kind `system` does not wake a member (wakeups.ts): a warning must not spend what it warns about.
    await deliver(tx, { team: c.team, from: "supervisor", to: [...new Set([OPERATOR.name, ...(c.member ? [c.member] : [])])], kind: "system", text });
    if (contractStops) {
      const contract = await findContract(tx, c.team, b.target);
      if (contract && ["pending", "ready", "in_progress"].includes(contract.status))
        await setStatus(tx, contract, "failed", BUDGET_REASON, {
          payload: b.unit === "tokens" ? { spentTokens: spent, amountTokens: amountOf(b) } : { spentUsd: spent, amountUsd: amountOf(b) },
        });
    }
  }
}
