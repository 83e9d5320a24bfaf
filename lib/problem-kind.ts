/**
 * What kind of trouble a session's problem sentence reports, for the fix the dashboard puts beside it
 * (docs/dashboard.md#a-fix-beside-every-problem). The hub writes these sentences (server/domain/sessions/problems.ts,
 * server/domain/budgets/charge.ts) and every door shows them as they are; each starts with its kind's words.
 */
export type ProblemKind = "turn_failed" | "budget" | "limit" | "failed" | "other";

export function problemKindOf(problem: string | null): ProblemKind | null {
  if (!problem) return null;
  if (problem.startsWith("last turn failed: ")) return "turn_failed";
  if (problem.startsWith("blocked: budget")) return "budget";
  if (/^(cost|turn|time) limit: /.test(problem)) return "limit";
  return "other";
}

/** Why a session stopped by itself to make room (docs/security.md#admission), in words; null for any other stop. */
export const ADMISSION_YIELDED = "admission:yielded";
export function stopReason(s: { status: string; exitReason: string | null }): string | null {
  if (s.status !== "stopped" || s.exitReason !== ADMISSION_YIELDED) return null;
  return "gave its place to a waiting session (too many live sessions); a message or Resume brings it back";
}
