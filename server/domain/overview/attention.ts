/**
 * What in a team needs a person now (docs/domain.md#overview): tool calls waiting for a decision, sessions
 * that stalled, sessions with a problem (failed, stopped by a limit, or whose last turn failed),
 * contracts that failed, artifacts that went stale, budgets past their warning (docs/budgets.md). Each row carries what
 * the dashboard needs to link to the place where it is acted on.
 */
import { jsonObjectOf } from "../sessions/sessions.repo.ts";
import type { Sql } from "../../db/connection.ts";
import type { Attention } from "../../../lib/api/overview.ts";
import { computeStale } from "../lineage/compute-stale.ts";
import { budgetView, levelOf, type BudgetRow } from "../budgets/budgets.repo.ts";

// The overview shows the head of each list; the pages behind the links show the rest.
export const ATTENTION_LIMIT = 50;

/** `showInputs`: what waiting tool calls would do is shown only to those who may decide them (docs/security.md#capabilities). */
export async function needsAttention(sql: Sql, team: string, showInputs: boolean): Promise<Attention> {
  const approvals = await sql.all<Omit<Attention["approvals"][number], "input"> & { input: string }>(
    `SELECT a."id", s."name" AS "session", a."toolName", a."input", a."reason", a."createdAt", a."expiresAt"
     FROM "Approval" a JOIN "Session" s ON s."pk" = a."sessionPk"
     WHERE a."teamId" = ? AND a."status" = 'pending' ORDER BY a."expiresAt", a."id" LIMIT ?`,
    [team, ATTENTION_LIMIT],
  );
  const stalledSessions = await sql.all<Attention["stalledSessions"][number]>(
    `SELECT "name", "status", "stalledAt" FROM "Session" WHERE "teamId" = ? AND "stalledAt" IS NOT NULL ORDER BY "stalledAt" LIMIT ?`,
    [team, ATTENTION_LIMIT],
  );
  const sessionProblems = await sql.all<Attention["sessionProblems"][number]>(
    `SELECT "name", "status", "exitReason", "problem", "updatedAt" FROM "Session" WHERE "teamId" = ? AND "problem" IS NOT NULL ORDER BY "updatedAt" DESC, "pk" DESC LIMIT ?`,
    [team, ATTENTION_LIMIT],
  );
  const failedContracts = await sql.all<Attention["failedContracts"][number]>(
    `SELECT "id", "title", "assignee", "statusReason", "updatedAt" FROM "Contract" WHERE "teamId" = ? AND "status" = 'failed' ORDER BY "updatedAt" DESC LIMIT ?`,
    [team, ATTENTION_LIMIT],
  );
  const stale = [...(await computeStale(sql, team)).values()].sort((a, b) => a.artifactId.localeCompare(b.artifactId)).slice(0, ATTENTION_LIMIT);
  const now = new Date();
  const views = await Promise.all(
    (await sql.all<BudgetRow>(`SELECT * FROM "Budget" WHERE "teamId" = ? ORDER BY "id"`, [team])).map((b) => budgetView(sql, b, now)),
  );
  const budgets = views
    .filter((v) => levelOf(v, v.spentUsd) > 0)
    .sort((a, b) => b.spentUsd / Math.max(b.amountUsd, 1e-9) - a.spentUsd / Math.max(a.amountUsd, 1e-9))
    .slice(0, ATTENTION_LIMIT);
  return {
    approvals: approvals.map((a) => ({ ...a, input: showInputs ? jsonObjectOf(a.input) : {} })),
    stalledSessions,
    sessionProblems,
    failedContracts,
    staleArtifacts: stale,
    budgets,
  };
}
