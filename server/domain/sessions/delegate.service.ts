/**
 * Delegate (docs/domain.md#delegate): run one task in its own session to the end and report in a form a parent agent
 * can act on — did it finish, does it need input, which limit stopped it — then `continue`,
 * `finish` or `abort`.
 */
import { sql } from "../../db/sql.ts";
import { stringsOf, type InteractionRow, type SafetyViolationRow, type SessionRow } from "../../db/rows.ts";
import { DomainError } from "../../errors.ts";
import type { ContinueInput, DelegateInput, DelegateResult, DelegateStatus, FinishResult, SessionRef } from "../../../lib/api/sessions.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { DEFAULT_APPROVAL_TIMEOUT_MS, Safety, ViolationKind } from "../../../lib/api/sessions.ts";
import { interactionById, queueMessage } from "./interactions.ts";
import { queueAndWait, sendAs, killSession, stopSession, type Waited } from "./control.service.ts";
import { requireSession, safetyOf, statusOf } from "./sessions.repo.ts";
import { insertSession } from "./spawn.service.ts";
import { withWorktrees } from "../worktrees/isolate.ts";
import type { SpawnDefaults } from "./spawn-authority.ts";
import { isLive } from "./states.ts";

// How long past the per-interaction limit we keep waiting for the supervisor to report the timeout.
const WAIT_GRACE_MS = 60_000;
const UNLIMITED_WAIT_MS = 3600 * 1000;
const STOP_WAIT_MS = 60_000;

const LIMIT_STATUS: Record<string, DelegateStatus> = {
  cost: "cost_exceeded",
  turns: "turns_exceeded",
  timeout: "timed_out",
  error_max_budget_usd: "cost_exceeded",
  error_max_turns: "turns_exceeded",
};

/** A reply that ends by asking something, or a permission a person refused or never gave, needs input. */
function asksForInput(text: string | null, unapproved: number): boolean {
  const last =
    (text ?? "")
      .trim()
      .split("\n")
      .filter((l) => l.trim())
      .pop() ?? "";
  return last.trim().endsWith("?") || unapproved > 0;
}

function outcome(i: InteractionRow | undefined, violations: Array<{ kind: string }>, unapproved: number, completed: boolean): DelegateStatus {
  if (!i || !completed) return "timed_out";
  if (i.status === "limit") return LIMIT_STATUS[i.resultSubtype ?? ""] ?? "failed";
  const limit = violations.find((v) => v.kind !== "protected_path");
  if (limit) return LIMIT_STATUS[limit.kind] ?? "failed";
  if (i.status !== "completed" || i.isError) return "failed";
  return asksForInput(i.response, unapproved) ? "needs_input" : "completed";
}

/**
 * A turn held by a used-up budget reports `cost_exceeded` at once rather than waiting out the call:
 * the error is the session's problem (which budget, spent of what) and says the task stays queued.
 */
const blockedError = (problem: string) => `${problem}; the task waits in the session's queue and starts when the budget is raised (abort withdraws it)`;

async function report(deps: DomainDeps, name: string, { id: interactionId, completed, blocked }: Waited): Promise<DelegateResult> {
  return deps.db.read(async (r) => {
    const s: SessionRow = await requireSession(r, name);
    const i = await interactionById(r, interactionId);
    const since = i?.startedAt ?? new Date(0);
    const violations = (
      await r.all<Pick<SafetyViolationRow, "kind" | "detail" | "at">>(
        sql`SELECT "kind","detail","at" FROM "SafetyViolation" WHERE "sessionPk" = ${s.pk} AND "at" >= ${since} ORDER BY "id"`,
      )
    ).map((v) => ({ ...v, kind: ViolationKind.parse(v.kind) }));
    const unapproved = await r.get<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM "Approval" WHERE "sessionPk" = ${s.pk} AND "createdAt" >= ${since} AND "status" IN ('denied','timed_out')`,
    );
    const status = blocked ? "cost_exceeded" : outcome(i, violations, unapproved?.n ?? 0, completed);
    const safety = safetyOf(s);
    const error =
      status === "completed" || status === "needs_input"
        ? null
        : blocked
          ? blockedError(blocked)
          : status === "timed_out" && !completed
            ? "no result before the wait ended"
            : (violations.find((v) => v.kind !== "protected_path")?.detail ?? i?.error ?? s.lastError ?? status);
    return {
      status,
      response: i?.response ?? null,
      cost: i?.costUsd ?? 0,
      turns: i?.turns ?? 0,
      duration: i?.durationMs ?? 0,
      sessionId: s.claudeSessionId,
      name: s.name,
      canContinue: (status === "completed" || status === "needs_input") && (isLive(s.status) || s.claudeSessionId !== null),
      toolsUsed: i ? stringsOf(i.toolsUsed) : [],
      safety: { violations, limits: { maxCostUsd: safety.maxCostUsd, maxTurns: safety.maxTurns, timeoutMs: safety.timeoutMs, enabled: safety.enabled } },
      error,
    };
  });
}

/** The turn's own time plus one permission request's wait, which the turn's clock does not count (docs/sessions.md). */
const waitBudget = (s: { enabled: boolean; timeoutMs: number; approvalTimeoutMs: number }) =>
  s.enabled ? s.timeoutMs + s.approvalTimeoutMs + WAIT_GRACE_MS : UNLIMITED_WAIT_MS;

export async function delegate(
  deps: DomainDeps,
  actor: Principal,
  input: DelegateInput,
  defaults: SpawnDefaults,
  signal?: AbortSignal,
): Promise<DelegateResult> {
  const safety = Safety.parse({ enabled: input.safety, maxCostUsd: input.maxCost, maxTurns: input.maxTurns, timeoutMs: input.timeout });
  const prompt = input.context ? `${input.context}\n\n${input.task}` : input.task;
  const request = { ...input, allowedTools: [], safety, approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS, kind: "delegate" as const };
  const waited = await queueAndWait(
    deps,
    input.name,
    () =>
      withWorktrees(deps, actor, [request], defaults, ([worktree]) =>
        deps.db.write("session.delegate", actor.name, async (tx) => {
          const row = await insertSession(
            tx,
            actor,
            {
              team: input.team,
              name: input.name,
              runtime: input.runtime,
              model: input.model,
              workDir: input.workDir,
              preset: input.preset,
              allowedTools: [],
              systemPrompt: input.systemPrompt,
              agent: input.agent,
              safety,
              approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS,
              kind: "delegate",
              source: actor.name,
              worktree,
            },
            defaults,
          );
          return (await queueMessage(tx, row, prompt, actor.name)).id;
        }),
      ),
    waitBudget({ ...safety, approvalTimeoutMs: DEFAULT_APPROVAL_TIMEOUT_MS }),
    signal,
    true,
  );
  return report(deps, input.name, waited);
}

/** A follow-up in the same conversation (`continue`); a stopped delegate is resumed first. */
export async function continueTask(deps: DomainDeps, actor: Principal, input: ContinueInput, maxLive: number, signal?: AbortSignal): Promise<DelegateResult> {
  const s = await deps.db.read((r) => requireSession(r, input.name));
  const waited = await queueAndWait(
    deps,
    input.name,
    () => deps.db.write("session.continue", actor.name, async (tx) => (await sendAs(tx, actor, input.name, input.message, maxLive)).id),
    waitBudget(safetyOf(s)),
    signal,
    true,
  );
  return report(deps, input.name, waited);
}

async function summary(deps: DomainDeps, name: string): Promise<FinishResult> {
  const s = await deps.db.read((r) => requireSession(r, name));
  return { name: s.name, status: statusOf(s), cost: s.costUsd, turns: s.turns, interactions: s.interactions, sessionId: s.claudeSessionId };
}

/** Finish: the work is accepted; stop the session gracefully (it stays resumable). */
export async function finishTask(deps: DomainDeps, actor: Principal, input: SessionRef): Promise<FinishResult> {
  const s = await deps.db.read((r) => requireSession(r, input.name));
  if (isLive(s.status)) await stopSession(deps, actor, { ...input, wait: true, waitTimeoutMs: STOP_WAIT_MS });
  return summary(deps, input.name);
}

/** Abort: kill it now, whatever it is doing. */
export async function abortTask(deps: DomainDeps, actor: Principal, input: SessionRef): Promise<FinishResult> {
  const s = await deps.db.read((r) => requireSession(r, input.name));
  if (!isLive(s.status))
    throw new DomainError("illegal_transition", `session '${s.name}' is ${s.status}; there is nothing to abort`, { name: s.name, current: s.status });
  await killSession(deps, actor, { ...input, wait: true, waitTimeoutMs: STOP_WAIT_MS });
  return summary(deps, input.name);
}
