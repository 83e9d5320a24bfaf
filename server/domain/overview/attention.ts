/**
 * What in a team needs a person now (docs/overview.md): tool calls waiting for a decision, sessions
 * that stalled, sessions with a problem (failed, stopped by a limit, blocked by a budget, or whose
 * last turn failed), contracts that failed, artifacts that went stale, budgets past their warning
 * (docs/budgets.md), each grouped by cause (./causes.ts). Every row of a kind is read, so a group's
 * count is whole even where its items are only the head.
 */
import type { Sql } from "../../db/connection.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type ApprovalRow, type ContractRow, type SessionRow } from "../../db/rows.ts";
import { JsonObject } from "../../../lib/api/common.ts";
import type { Attention } from "../../../lib/api/overview.ts";
import { shareOf, spentOf } from "../../../lib/budget-figures.ts";
import { computeStale } from "../lineage/compute-stale.ts";
import { levelOf, type BudgetWithView } from "../budgets/budgets.repo.ts";
import { groupByCause, problemCause, staleCauses } from "./causes.ts";
import { accountHolds, LIMITED_PREFIX } from "../accounts/limits.ts";

/**
 * `showInputs`: what waiting tool calls would do is shown only to those who may decide them (docs/security.md#capabilities).
 * `budgets`: the team's budgets with their figures, worked out once per overview (./overview.service.ts).
 */
export async function needsAttention(s: Sql, team: string, showInputs: boolean, budgets: BudgetWithView[]): Promise<Attention> {
  const approvals = await s.all<Pick<ApprovalRow, "id" | "toolName" | "input" | "reason" | "createdAt" | "expiresAt"> & { session: SessionRow["name"] }>(
    sql`SELECT a."id", s."name" AS "session", a."toolName", a."input", a."reason", a."createdAt", a."expiresAt"
     FROM "Approval" a JOIN "Session" s ON s."pk" = a."sessionPk"
     WHERE a."teamId" = ${team} AND a."status" = 'pending' ORDER BY a."expiresAt", a."id"`,
  );
  const stalledSessions = await s.all<Pick<SessionRow, "name" | "status"> & { stalledAt: NonNullable<SessionRow["stalledAt"]> }>(
    sql`SELECT "name", "status", "stalledAt" FROM "Session" WHERE "teamId" = ${team} AND "stalledAt" IS NOT NULL ORDER BY "stalledAt"`,
  );
  const sessionProblems = await s.all<Pick<SessionRow, "name" | "status" | "exitReason" | "updatedAt"> & { problem: NonNullable<SessionRow["problem"]> }>(
    sql`SELECT "name", "status", "exitReason", "problem", "updatedAt" FROM "Session" WHERE "teamId" = ${team} AND "problem" IS NOT NULL AND "problem" NOT LIKE ${`${LIMITED_PREFIX}%`}
     ORDER BY "updatedAt" DESC, "pk" DESC`,
  );
  const failedContracts = await s.all<Pick<ContractRow, "id" | "title" | "assignee" | "statusReason" | "updatedAt">>(
    sql`SELECT "id", "title", "assignee", "statusReason", "updatedAt" FROM "Contract" WHERE "teamId" = ${team} AND "status" = 'failed' ORDER BY "updatedAt" DESC, "id"`,
  );
  const stale = [...(await computeStale(s, team)).values()].sort((a, b) => a.artifactId.localeCompare(b.artifactId));
  const pastWarning = budgets
    .filter(([, v]) => levelOf(v, spentOf(v)) > 0)
    .sort(([a, av], [b, bv]) => shareOf(bv) - shareOf(av) || a.id - b.id)
    .map(([, v]) => v);
  return {
    approvals: groupByCause(
      approvals.map((a) => ({ ...a, input: showInputs ? jsonColumn(JsonObject, a.input) : {} })),
      (a) => `waiting to run ${a.toolName}`,
    ),
    stalledSessions: groupByCause(stalledSessions, (s) => `silent while ${s.status}`),
    sessionProblems: groupByCause(sessionProblems, (s) => problemCause(s.problem)),
    failedContracts: groupByCause(failedContracts, (c) => (c.statusReason ? `failed: ${c.statusReason}` : "failed without a reason")),
    staleArtifacts: staleCauses(stale),
    budgets: groupByCause(pastWarning, (b) => (b.usedUp ? "used up" : "past the warning")),
    accounts: await accountHolds(s, team),
  };
}
