/**
 * A session's problem: what a person should know is wrong with it, in one sentence that every
 * door shows as it is (API, CLI, MCP, dashboard) and that puts the session on needs-attention.
 * A failed turn, a limit or a failed exit sets it; a later successful turn, a resume or deleting
 * the session resolves it. Each change is announced (`session.problem`), which is what raises and
 * clears the dashboard's alert.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { clock, dollars } from "../../../lib/format.ts";
import type { SessionRow } from "../../db/rows.ts";

export type LimitKind = "cost" | "turns" | "timeout";

/** What kind of trouble it is, announced with the sentence so that an alert can say it in a word. */
/** `budget`: its next turn waits because a budget it would be charged to is used up (docs/budgets.md). */
/** `limited`: its account's usage window is used up; its turns wait for the reset (docs/limits.md). */
export type ProblemKind = "turn_failed" | "limit" | "failed" | "budget" | "limited";
export type Problem = { kind: ProblemKind; text: string };

export type LimitFacts = { costUsd: number; maxCostUsd: number; turns: number; maxTurns: number; timeoutMs: number };

/** "cost limit: $0.40 spent of $0.05", "turn limit: 51 of 50 turns", "time limit: no result within 5:00". */
export function limitProblem(kind: LimitKind, f: LimitFacts): string {
  switch (kind) {
    case "cost":
      return `cost limit: ${dollars(f.costUsd)} spent of ${dollars(f.maxCostUsd)}`;
    case "turns":
      return `turn limit: ${f.turns} of ${f.maxTurns} turns`;
    case "timeout":
      return timeLimitProblem(f.timeoutMs);
  }
}

/** The turn's own time: waiting for a person's decision does not count (docs/sessions.md). */
export const timeLimitProblem = (timeoutMs: number) => `time limit: no result within ${clock(timeoutMs)}`;

export const turnFailedProblem = (error: string): Problem => ({ kind: "turn_failed", text: `last turn failed: ${error}` });

/**
 * A process that ended failed: why, with the hub's own error when it has one ("spawn_failed: …"),
 * else how it ended ("crashed (exited with code 1)"); the stderr tail stays in `lastError`, since
 * its last lines are as often the CLI's warnings as the cause.
 */
export const exitProblem = (reason: string, how: string, error: string | null): Problem => ({
  kind: "failed",
  text: error ? `${reason}: ${error}` : `${reason} (${how})`,
});

/** Records the session's problem (null: resolved) and announces the change; the same problem again changes nothing. */
export async function setProblem(tx: WriteTx, s: SessionRow, problem: Problem | null): Promise<void> {
  const text = problem?.text ?? null;
  if (s.problem === text) return;
  const previous = s.problem;
  await tx.run(sql`UPDATE "Session" SET "problem" = ${text} WHERE "pk" = ${s.pk}`);
  s.problem = text;
  await tx.emit({
    teamId: s.teamId,
    type: "session.problem",
    subject: `session:${s.name}`,
    payload: { name: s.name, problem: text, kind: problem?.kind ?? null, previous },
  });
}
