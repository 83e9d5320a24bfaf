/**
 * The writes the supervisor makes while it runs a session's process: launched, turn started,
 * transcript lines, turn finished (cost, turns, limits), permission requests, exit. Each is one
 * transaction; the supervisor acts on the CLI only after it commits.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumn, type InteractionRow, type SessionRow, type TranscriptEntryRow } from "../../db/rows.ts";
import { JsonValue } from "../../../lib/api/common.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { cancelPending, openApproval, settleApproval } from "./approvals.ts";
import { explainAuthFailure } from "./auth-failure.ts";
import { abandonRunning, interactionById } from "./interactions.ts";
import { afterCharge, BLOCKED_PREFIX, blockedSentence, chargeOf, isUsedUp, tightestBudgets, type UsedUp } from "../budgets/charge.ts";
import { exitProblem, limitProblem, setProblem, turnFailedProblem, type LimitKind } from "./problems.ts";
import { moveTo, safetyOf, sessionByPk, statusOf } from "./sessions.repo.ts";
import { holdIfLimited } from "../accounts/limits.ts";
import { isLive } from "./states.ts";
import type { ApprovalView, SessionStatus, StoredSafety, ViolationKind } from "../../../lib/api/sessions.ts";

async function write<T>({ db }: DomainDeps, name: string, pk: number, fn: (tx: WriteTx, s: SessionRow) => Promise<T>): Promise<T | null> {
  return db.write(name, SUPERVISOR.name, async (tx) => {
    const s = await sessionByPk(tx, pk);
    // Deleted while its process was still talking: nothing left to record. Taken over by another hub after this one was
    // declared lost (docs/hubs.md#lost): what this hub's old process says is no longer the session's.
    if (!s || (tx.hub !== null && s.hubId !== null && s.hubId !== tx.hub)) return null;
    return fn(tx, s);
  });
}

/** `account`: the digest of the credentials it runs on (docs/limits.md#accounts). */
type LaunchInfo = { pid: number; mode: string; args: string[]; sandbox: "bubblewrap" | "none"; dir: string; account?: string };

/** The process runs; `sandbox` records whether in the OS sandbox (docs/security.md#sandbox), shown on the session everywhere. */
export async function markLaunched(deps: DomainDeps, pk: number, info: LaunchInfo): Promise<void> {
  await write(deps, "session.launched", pk, async (tx, s) => {
    const to: SessionStatus = s.status === "paused" ? "paused" : "idle";
    const sets = {
      pid: info.pid,
      sandbox: info.sandbox,
      dir: info.dir,
      account: info.account ?? null,
      exitReason: null,
      lastError: null,
      stalledAt: null,
      lastEventAt: tx.now,
    };
    await moveTo(tx, s, to, `process ${info.pid} started (${info.mode}, sandbox: ${info.sandbox})`, sets);
    const payload = { name: s.name, pid: info.pid, mode: info.mode, sandbox: info.sandbox, args: info.args };
    await tx.emit({ teamId: s.teamId, type: "session.started", subject: `session:${s.name}`, payload });
  });
}

/** `budgets`: per unit, the budget the turn counts against with the least left when it started, which it must not cross while it runs. */
export type StartedTurn = InteractionRow & { budgets: UsedUp[] };

/** Starts the oldest queued turn if the session is free; returns it for the supervisor to send. */
export async function startNextTurn(deps: DomainDeps, pk: number): Promise<StartedTurn | null> {
  return (
    (await write(deps, "session.turn", pk, async (tx, s) => {
      if (s.status !== "idle") return null;
      const next = await tx.get<InteractionRow>(sql`SELECT * FROM "Interaction" WHERE "sessionPk" = ${pk} AND "status" = 'queued' ORDER BY "n" LIMIT 1`);
      if (!next) return null;
      // A used-up usage window holds every session of its account (docs/limits.md): the turn waits in its place.
      if (await holdIfLimited(tx, s)) return null;
      // The hard stop (docs/budgets.md): no turn starts while a budget it would be charged to is used up.
      const charge = await chargeOf(tx, s, next.prompt, null);
      const budgets = charge ? await tightestBudgets(tx, charge, tx.now) : [];
      const usedUp = budgets.find(isUsedUp);
      if (usedUp) {
        await setProblem(tx, s, { kind: "budget", text: blockedSentence(usedUp, tx.now) });
        return null;
      }
      if (s.problem?.startsWith(BLOCKED_PREFIX)) await setProblem(tx, s, null);
      await tx.run(sql`UPDATE "Interaction" SET "status" = 'running', "startedAt" = ${tx.now} WHERE "id" = ${next.id}`);
      await moveTo(tx, s, "busy", `turn ${next.n}`, { lastEventAt: tx.now, stalledAt: null });
      await tx.emit({
        teamId: s.teamId,
        type: "session.turn_started",
        subject: `session:${s.name}`,
        payload: { name: s.name, interactionId: next.id, n: next.n },
      });
      return { ...(await interactionById(tx, next.id))!, budgets };
    })) ?? null
  );
}

// A transcript line above this is stored truncated: one huge tool input must not bloat the database.
export const MAX_TRANSCRIPT_PAYLOAD = 256 * 1024;

export type TranscriptLine = { interactionId: number | null; direction: "in" | "out"; type: string; subtype: string | null; payload: unknown };
export type StoredLine = TranscriptLine & { id: number; at: Date };

export async function appendTranscript(deps: DomainDeps, pk: number, line: TranscriptLine): Promise<StoredLine | null> {
  return write(deps, "session.transcript", pk, async (tx, s) => {
    let text = JSON.stringify(line.payload);
    if (text.length > MAX_TRANSCRIPT_PAYLOAD) text = JSON.stringify({ truncated: true, bytes: text.length, head: text.slice(0, 4096) });
    const r = await tx.get<Pick<TranscriptEntryRow, "id">>(
      sql`INSERT INTO "TranscriptEntry" ("sessionPk","interactionId","at","direction","type","subtype","payload") VALUES (${pk},${line.interactionId},${tx.now},${line.direction},${line.type},${line.subtype},${text}) RETURNING "id"`,
    );
    if (line.direction === "out") {
      await tx.run(sql`UPDATE "Session" SET "lastEventAt" = ${tx.now}, "stalledAt" = NULL WHERE "pk" = ${pk}`);
      if (s.stalledAt) await tx.emit({ teamId: s.teamId, type: "session.unstalled", subject: `session:${s.name}`, payload: { name: s.name } });
    }
    return { ...line, payload: jsonColumn(JsonValue, text), id: r!.id, at: tx.now };
  });
}

export async function recordInit(deps: DomainDeps, pk: number, init: { claudeSessionId: string; model: string | null }): Promise<void> {
  await write(deps, "session.init", pk, async (tx, s) => {
    if (s.claudeSessionId === init.claudeSessionId && (s.model === init.model || !init.model)) return;
    await tx.run(
      sql`UPDATE "Session" SET "claudeSessionId" = ${init.claudeSessionId}, "model" = COALESCE(${init.model}, "model"), "updatedAt" = ${tx.now} WHERE "pk" = ${pk}`,
    );
  });
}

export async function recordViolation(tx: WriteTx, s: SessionRow, kind: ViolationKind, detail: string): Promise<void> {
  await tx.run(sql`INSERT INTO "SafetyViolation" ("sessionPk","kind","detail","at") VALUES (${s.pk},${kind},${detail},${tx.now})`);
  await tx.emit({ teamId: s.teamId, type: "session.violation", subject: `session:${s.name}`, payload: { name: s.name, kind, detail } });
}

export async function violation(deps: DomainDeps, pk: number, kind: ViolationKind, detail: string): Promise<void> {
  await write(deps, "session.violation", pk, (tx, s) => recordViolation(tx, s, kind, detail));
}

export type TurnTokens = { input: number; cacheWrite: number; cacheRead: number; output: number };

export type TurnResult = {
  interactionId: number;
  status: "completed" | "error" | "interrupted";
  isError: boolean;
  subtype: string | null;
  response: string | null;
  /** Why a turn with status `error` failed: the API's message (or the CLI's errors). */
  error: string | null;
  costDelta: number;
  /** The turn's tokens, by kind (token budgets count all but cache reads). */
  tokens?: TurnTokens;
  turns: number;
  durationMs: number;
  toolsUsed: string[];
  permissionDenials: unknown[];
  /** Ended without text or tool use (docs/domain.md#health). */
  empty: boolean;
  /** A limit the supervisor enforced itself during the turn (the interaction timer). */
  limit?: LimitKind;
  /** The turn was interrupted because its streamed usage crossed what a budget had left: the sentence that says so. */
  budgetStop?: string;
};

const CLI_LIMITS: Record<string, LimitKind> = { error_max_budget_usd: "cost", error_max_turns: "turns" };

/** The cost limit that binds: the safety net's, or the CLI budget the session was given when that is lower. */
const costCeiling = (s: SessionRow, safety: StoredSafety) => Math.min(s.maxBudgetUsd ?? Infinity, safety.enabled ? safety.maxCostUsd : Infinity);

/**
 * Records a finished turn and adds it to the session's totals. A failed turn becomes the session's
 * problem until a later turn succeeds. Returns the safety limit the session has now reached, if
 * any, and the sentence that says so, so the supervisor can stop it.
 */
export async function finishTurn(deps: DomainDeps, pk: number, turn: TurnResult): Promise<{ limit: LimitKind | null; problem: string | null }> {
  const r = turn.status === "error" ? { ...turn, error: explainAuthFailure(turn.error) } : turn;
  return (
    (await write(deps, "session.turn_done", pk, async (tx, s) => {
      const cost = Math.max(0, r.costDelta);
      const turnRow = await interactionById(tx, r.interactionId);
      const charge = turnRow ? await chargeOf(tx, s, turnRow.prompt, turnRow.startedAt) : null;
      const safety = safetyOf(s);
      const totals = {
        costUsd: s.costUsd + cost,
        turns: s.turns + r.turns,
        interactions: s.interactions + 1,
        lastOutput: r.response ?? s.lastOutput,
        lastEventAt: tx.now,
      };
      // A limit that cut the turn short (ours or the CLI's), else one the totals have now reached.
      const cut = r.limit ?? CLI_LIMITS[r.subtype ?? ""] ?? null;
      const reached = !safety.enabled ? null : totals.costUsd >= safety.maxCostUsd ? "cost" : totals.turns >= safety.maxTurns ? "turns" : null;
      const limit: LimitKind | null = cut ?? reached;
      const limitSays =
        limit &&
        limitProblem(limit, {
          costUsd: totals.costUsd,
          maxCostUsd: costCeiling(s, safety),
          turns: totals.turns,
          maxTurns: safety.maxTurns,
          timeoutMs: safety.timeoutMs,
        });
      const status = cut ? "limit" : r.status;
      const error = cut ? limitSays : r.status === "error" ? r.error : (r.budgetStop ?? null);
      await tx.run(
        sql`UPDATE "Interaction" SET "response" = ${r.response}, "status" = ${status}, "isError" = ${r.isError}, "resultSubtype" = ${r.limit ?? r.subtype}, "error" = ${error}, "costUsd" = ${cost}, "inputTokens" = ${r.tokens?.input ?? 0}, "cacheWriteTokens" = ${r.tokens?.cacheWrite ?? 0},
           "cacheReadTokens" = ${r.tokens?.cacheRead ?? 0}, "outputTokens" = ${r.tokens?.output ?? 0}, "turns" = ${r.turns}, "durationMs" = ${r.durationMs}, "toolsUsed" = ${JSON.stringify(r.toolsUsed)}, "permissionDenials" = ${JSON.stringify(r.permissionDenials)}, "empty" = ${r.empty}, "endedAt" = ${tx.now}, "teamId" = ${charge?.team ?? null}, "member" = ${charge?.member ?? null}, "contractId" = ${charge?.contract ?? null} WHERE "id" = ${r.interactionId}`,
      );
      const next: SessionStatus = s.status === "paused" || !isLive(s.status) ? statusOf(s) : "idle";
      // A failed turn leaves its message on the session until a later turn succeeds; an interrupted one changes nothing.
      const lastError = status === "error" ? error : status === "completed" ? null : s.lastError;
      await moveTo(tx, s, next, `turn finished (${status})`, { ...totals, lastError });
      await tx.emit({
        teamId: s.teamId,
        type: "session.turn_completed",
        subject: `session:${s.name}`,
        payload: {
          name: s.name,
          interactionId: r.interactionId,
          status,
          isError: r.isError,
          subtype: r.subtype,
          error,
          costUsd: cost,
          turns: r.turns,
          durationMs: r.durationMs,
          empty: r.empty,
          toolsUsed: r.toolsUsed,
        },
      });
      if (r.empty)
        await tx.emit({
          teamId: s.teamId,
          type: "session.empty_turn",
          subject: `session:${s.name}`,
          payload: { name: s.name, interactionId: r.interactionId },
        });

      if (charge && cost > 0) await afterCharge(tx, charge, s.name);
      if (limit) await recordViolation(tx, s, limit, limitSays!);
      if (limitSays) await setProblem(tx, s, { kind: "limit", text: limitSays });
      else if (status === "error") await setProblem(tx, s, turnFailedProblem(error ?? "no message"));
      else if (status === "completed") await setProblem(tx, s, null);
      return { limit, problem: limitSays };
    })) ?? { limit: null, problem: null }
  );
}

export async function requestApproval(
  deps: DomainDeps,
  pk: number,
  request: { requestId: string; toolName: string; input: Record<string, unknown>; reason: string },
): Promise<ApprovalView | null> {
  return write(deps, "session.approval_requested", pk, (tx, s) => openApproval(tx, s, { ...request, timeoutMs: safetyOf(s).approvalTimeoutMs }));
}

/** The deadline passed with nobody deciding: deny (docs/domain.md#permissions). Null when a decision got there first. */
export async function expireApproval(deps: DomainDeps, approvalId: number): Promise<ApprovalView | null> {
  return deps.db.write("session.approval_timeout", SUPERVISOR.name, (tx) =>
    settleApproval(tx, approvalId, "timed_out", SUPERVISOR.name, "no decision before the deadline"),
  );
}

export async function cancelApproval(deps: DomainDeps, approvalId: number, why: string): Promise<void> {
  await deps.db.write("session.approval_cancelled", SUPERVISOR.name, (tx) => settleApproval(tx, approvalId, "cancelled", SUPERVISOR.name, why));
}

/** `problem`: the limit that ended it, in words (finishTurn's sentence); a failed exit makes its own. */
export type ExitRecord = {
  status: "stopped" | "killed" | "failed" | "interrupted";
  reason: string;
  code: number | null;
  signal: string | null;
  error: string | null;
  stderrTail: string;
  problem?: string | null;
};

export async function recordExit(deps: DomainDeps, pk: number, exit: ExitRecord): Promise<void> {
  await write(deps, "session.exited", pk, async (tx, s) => {
    const failed = exit.status === "failed";
    const how = exit.code !== null ? `exited with code ${exit.code}` : exit.signal ? `ended by ${exit.signal}` : "exited";
    const lastError = exit.error ?? (failed ? exit.stderrTail.trim().split("\n").slice(-5).join("\n") || how : s.lastError);
    await moveTo(tx, s, exit.status, exit.reason, { pid: null, exitReason: exit.reason, lastError, stalledAt: null });
    // A turn that failed before a person stopped the session is still unresolved: its problem stays.
    // A failure that says itself in full (a work tree's setup: "setup failed (exit 3): …") is the problem as it is.
    if (failed) await setProblem(tx, s, exit.problem ? { kind: "failed", text: exit.problem } : exitProblem(exit.reason, how, exit.error));
    else if (exit.problem) await setProblem(tx, s, { kind: "limit", text: exit.problem });
    const abandoned = await abandonRunning(tx, pk, failed ? "error" : "interrupted", `(no result: the process ${exit.reason})`);
    await cancelPending(tx, pk, `the process ${exit.reason}`);
    await tx.emit({
      teamId: s.teamId,
      type: "session.exited",
      subject: `session:${s.name}`,
      payload: {
        name: s.name,
        status: exit.status,
        reason: exit.reason,
        problem: s.problem,
        code: exit.code,
        signal: exit.signal,
        abandonedInteraction: abandoned,
        stderrTail: exit.stderrTail.slice(-2000),
      },
    });
  });
}

/** Marks busy sessions silent for longer than the threshold as stalled (docs/domain.md#health); returns them. */
export async function detectStalls(deps: DomainDeps, thresholdMs: number): Promise<SessionRow[]> {
  return deps.db.write("session.stall_check", SUPERVISOR.name, async (tx) => {
    const cutoff = new Date(tx.now.getTime() - thresholdMs);
    const rows = await tx.all<SessionRow>(sql`SELECT * FROM "Session" WHERE "status" = 'busy' AND "stalledAt" IS NULL AND "lastEventAt" < ${cutoff}`);
    for (const s of rows) {
      await tx.run(sql`UPDATE "Session" SET "stalledAt" = ${tx.now} WHERE "pk" = ${s.pk}`);
      await tx.emit({
        teamId: s.teamId,
        type: "session.stalled",
        subject: `session:${s.name}`,
        payload: { name: s.name, silentSince: s.lastEventAt, thresholdMs },
      });
    }
    return rows;
  });
}
