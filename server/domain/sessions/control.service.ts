/**
 * Operating sessions (docs/domain.md#operations): send, pause, resume, stop, kill, delete, cleanup. Each records the
 * request in one transaction; the supervisor carries it out on the process when the event
 * commits, and callers that asked to wait are answered from the events that follow.
 */
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, raw, sql, values } from "../../db/sql.ts";
import type { InteractionRow, SessionRow } from "../../db/rows.ts";
import { DomainError } from "../../errors.ts";
import { waitForEvent } from "../../events/wait.ts";
import type { HubEvent } from "../../events/types.ts";
import type { CleanupInput, SendInput, SendResult, SessionRef, SessionView } from "../../../lib/api/sessions.ts";
import { authorize } from "../auth/capabilities.ts";
import { authorizeSession } from "./ownership.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { sessionTokenLabel } from "../auth/tokens.service.ts";
import { interactionById, interactionView, queueMessage, runningInteraction } from "./interactions.ts";
import { pendingApprovals } from "./approvals.ts";
import { announceQueued, placeFor } from "./admission.ts";
import { setProblem } from "./problems.ts";
import { BLOCKED_PREFIX } from "../budgets/charge.ts";
import { moveTo, requireSession, statusOf, viewOf } from "./sessions.repo.ts";
import { ENDED, assertMove, isLive } from "./states.ts";
import { workTreeDiscarded } from "../worktrees/worktrees.repo.ts";

function refuse(s: SessionRow, operation: string, needs: string): never {
  throw new DomainError("illegal_transition", `session '${s.name}' is ${s.status}; ${operation} needs it to be ${needs}`, {
    name: s.name,
    current: s.status,
    operation,
  });
}

/**
 * Ended → starting (or queued, when no place is free), so the supervisor relaunches it with `--resume`.
 * Someone chose to carry on: what went wrong before is resolved (a new failure says so again).
 */
export async function requestResume(tx: WriteTx, s: SessionRow, why: string, maxLive: number): Promise<void> {
  if (await workTreeDiscarded(tx, s)) {
    throw new DomainError(
      "precondition_failed",
      `name: session '${s.name}' cannot be resumed: its work tree was discarded (its work dir '${s.workDir}' is gone); delete it and spawn a new one`,
      { field: "name", rule: "worktree_not_discarded", name: s.name },
    );
  }
  if (!s.claudeSessionId) throw new DomainError("precondition_failed", `session '${s.name}' has no Claude session id to resume`, { name: s.name });
  const to = await placeFor(tx, maxLive);
  assertMove(s.name, statusOf(s), to, "resume");
  // Whichever hub resumes it runs it (docs/hubs.md#resume-elsewhere); a process without a supervisor leaves it for one to claim.
  const sets = { exitReason: null, lastError: null, hubId: tx.hub, ...(to === "queued" ? { queuedAt: tx.now } : {}) };
  await moveTo(tx, s, to, why, sets);
  await setProblem(tx, s, null);
  await tx.emit({
    teamId: s.teamId,
    type: "session.resume_requested",
    subject: `session:${s.name}`,
    payload: { name: s.name, claudeSessionId: s.claudeSessionId },
  });
  if (to === "queued") await announceQueued(tx, s, maxLive);
}

/** Queues a message inside an existing transaction; a session that is not running is resumed first (through admission). */
export async function sendInTx(tx: WriteTx, s: SessionRow, message: string, source: string, maxLive: number) {
  if (!isLive(s.status)) await requestResume(tx, s, `message from ${source}`, maxLive);
  return queueMessage(tx, s, message, source);
}

const PENDING = ["queued", "running"];

const turnEnded = (e: HubEvent, name: string, id: number) =>
  (e.type === "session.turn_completed" && e.payload.interactionId === id) ||
  (e.type === "session.exited" && e.payload.abandonedInteraction === id) ||
  (e.type === "session.deleted" && e.payload.name === name);

/** A turn that waits for a budget (docs/budgets.md): the session's problem says which, and nothing starts until someone raises it. */
const blockedBy = (e: HubEvent, name: string): string | undefined =>
  e.type === "session.problem" && e.payload.name === name && e.payload.kind === "budget" && typeof e.payload.problem === "string"
    ? e.payload.problem
    : undefined;

export type Waited = { id: number; completed: boolean; blocked: string | null };

/**
 * Runs the write that queues a turn, then waits until that turn has ended, the timeout passes or
 * the caller goes away; with `untilBlocked`, also until the session's queue is held by a used-up
 * budget (`blocked` is then the session's problem and the turn is still queued).
 */
export async function queueAndWait(
  deps: DomainDeps,
  name: string,
  queue: () => Promise<number>,
  timeoutMs: number,
  signal?: AbortSignal,
  untilBlocked = false,
): Promise<Waited> {
  let id = -1;
  const wait = waitForEvent<{ blocked: string | null }>(
    deps.bus,
    (e) => (turnEnded(e, name, id) ? { blocked: null } : untilBlocked && blockedBy(e, name) ? { blocked: blockedBy(e, name)! } : undefined),
    timeoutMs,
    signal,
  );
  try {
    id = await queue();
  } catch (e) {
    wait.cancel();
    throw e;
  }
  // It may have ended, or been held by a budget that was already used up, before the subscription could see it.
  const { row, problem } = await deps.db.read(async (s) => ({ row: await interactionById(s, id), problem: (await requireSession(s, name)).problem }));
  if (!row || !PENDING.includes(row.status)) {
    wait.cancel();
    return { id, completed: true, blocked: null };
  }
  if (untilBlocked && row.status === "queued" && problem?.startsWith(BLOCKED_PREFIX)) {
    wait.cancel();
    return { id, completed: false, blocked: problem };
  }
  const ended = await wait.promise;
  return { id, completed: ended !== null && ended.blocked === null, blocked: ended?.blocked ?? null };
}

/** Queues a turn from `actor`, who must own the session (a turn makes it act with its own tools). */
export async function sendAs(tx: WriteTx, actor: Principal, name: string, message: string, maxLive: number) {
  const s = await requireSession(tx, name);
  await authorizeSession(tx, actor, "session.send", s);
  return sendInTx(tx, s, message, actor.name, maxLive);
}

export async function sendMessage(deps: DomainDeps, actor: Principal, input: SendInput, maxLive: number, signal?: AbortSignal): Promise<SendResult> {
  const queue = () => deps.db.write("session.send", actor.name, async (tx) => (await sendAs(tx, actor, input.name, input.message, maxLive)).id);
  const { id, completed } = input.wait ? await queueAndWait(deps, input.name, queue, input.waitTimeoutMs, signal) : { id: await queue(), completed: false };
  return deps.db.read(async (r) => {
    const row = await interactionById(r, id);
    const s = await requireSession(r, input.name);
    if (!row) throw new DomainError("not_found", `session '${input.name}' was deleted while the message was pending`, { name: input.name });
    return { session: await viewOf(r, s), interaction: interactionView(row), completed: completed && !PENDING.includes(row.status) };
  });
}

/** Pause: the process stays alive; new messages queue until resume. */
export async function pauseSession({ db }: DomainDeps, actor: Principal, input: SessionRef): Promise<SessionView> {
  return db.write("session.pause", actor.name, async (tx) => {
    const s = await requireSession(tx, input.name);
    await authorizeSession(tx, actor, "session.pause", s);
    if (!isLive(s.status) || s.status === "paused" || s.status === "queued") refuse(s, "pause", "starting, idle, busy or waiting_permission");
    await moveTo(tx, s, "paused", `paused by ${actor.name}`);
    return viewOf(tx, s);
  });
}

/** Resume: a paused session continues where it was; an ended one is relaunched with `--resume`. */
export async function resumeSession({ db }: DomainDeps, actor: Principal, input: SessionRef, maxLive: number): Promise<SessionView> {
  return db.write("session.resume", actor.name, async (tx) => {
    const s = await requireSession(tx, input.name);
    await authorizeSession(tx, actor, "session.resume", s);
    if (s.status === "paused") {
      const running = await runningInteraction(tx, s.pk);
      const waiting = running && (await pendingApprovals(tx, s.pk)).length > 0;
      await moveTo(tx, s, waiting ? "waiting_permission" : running ? "busy" : s.pid ? "idle" : "starting", `resumed by ${actor.name}`);
      await tx.emit({ teamId: s.teamId, type: "session.unpaused", subject: `session:${s.name}`, payload: { name: s.name } });
    } else if ((ENDED as string[]).includes(s.status)) {
      await requestResume(tx, s, `resumed by ${actor.name}`, maxLive);
    } else {
      refuse(s, "resume", "paused, stopped, interrupted, failed or killed");
    }
    return viewOf(tx, s);
  });
}

const exited = (name: string) => (e: HubEvent) => ((e.type === "session.exited" || e.type === "session.deleted") && e.payload.name === name ? true : undefined);

async function endSession(
  deps: DomainDeps,
  actor: Principal,
  input: SessionRef & { wait: boolean; waitTimeoutMs: number },
  how: "stop" | "kill",
): Promise<SessionView> {
  const wait = input.wait ? waitForEvent(deps.bus, exited(input.name), input.waitTimeoutMs) : null;
  try {
    await deps.db.write(`session.${how}`, actor.name, async (tx) => {
      const s = await requireSession(tx, input.name);
      await authorizeSession(tx, actor, `session.${how}`, s);
      if (!isLive(s.status)) refuse(s, how, "running (queued, starting, idle, busy, waiting_permission or paused)");
      if (s.status === "queued") return endQueued(tx, s, how);
      await tx.emit({ teamId: s.teamId, type: `session.${how}_requested`, subject: `session:${s.name}`, payload: { name: s.name, by: actor.name } });
    });
  } catch (e) {
    wait?.cancel();
    throw e;
  }
  if (wait) {
    const live = await deps.db.read(async (s) => isLive((await requireSession(s, input.name)).status));
    if (live) await wait.promise;
    else wait.cancel();
  }
  return deps.db.read(async (s) => viewOf(s, await requireSession(s, input.name)));
}

/**
 * A queued session has no process: it ends here, without ever launching, and leaves the queue.
 * The turn it was waiting to run is abandoned, as a live session's running turn is, so whoever
 * waits on it (a delegate, a send with wait) is answered; later messages stay for a resume.
 */
async function endQueued(tx: WriteTx, s: SessionRow, how: "stop" | "kill"): Promise<void> {
  const status = how === "stop" ? "stopped" : "killed";
  await moveTo(tx, s, status, `${status} while queued`, { exitReason: status });
  const first = await tx.get<Pick<InteractionRow, "id">>(
    sql`SELECT "id" FROM "Interaction" WHERE "sessionPk" = ${s.pk} AND "status" = 'queued' ORDER BY "n" LIMIT 1`,
  );
  if (first) {
    const response = `(not run: ${status} while queued)`;
    await tx.run(sql`UPDATE "Interaction" SET "status" = 'interrupted', "response" = ${response}, "endedAt" = ${tx.now} WHERE "id" = ${first.id}`);
  }
  await tx.emit({
    teamId: s.teamId,
    type: "session.exited",
    subject: `session:${s.name}`,
    payload: { name: s.name, status, reason: status, code: null, signal: null, abandonedInteraction: first?.id ?? null, stderrTail: "" },
  });
}

/** Stop: close stdin so the current turn can finish; the Claude session id is kept for resume. */
export const stopSession = (deps: DomainDeps, actor: Principal, input: SessionRef & { wait: boolean; waitTimeoutMs: number }) =>
  endSession(deps, actor, input, "stop");

/** Kill: interrupt → SIGTERM → SIGKILL. */
export const killSession = (deps: DomainDeps, actor: Principal, input: SessionRef & { wait: boolean; waitTimeoutMs: number }) =>
  endSession(deps, actor, input, "kill");

const ENDED_VALUES = values(ENDED);

const SESSION_ROWS = ["TranscriptEntry", "Interaction", "Approval", "SafetyViolation"].map((table) => raw(`"${table}"`));

async function deleteInTx(tx: WriteTx, s: SessionRow, by: string): Promise<void> {
  const counts = await tx.get<{ interactions: number; entries: number }>(
    sql`SELECT (SELECT COUNT(*) FROM "Interaction" WHERE "sessionPk" = ${s.pk}) AS interactions, (SELECT COUNT(*) FROM "TranscriptEntry" WHERE "sessionPk" = ${s.pk}) AS entries`,
  );
  for (const table of SESSION_ROWS) await tx.run(sql`DELETE FROM ${table} WHERE "sessionPk" = ${s.pk}`);
  await tx.run(sql`DELETE FROM "Session" WHERE "pk" = ${s.pk}`);
  // Its work tree is pruned once its process has ended; the branch stays until merged or discarded (docs/worktrees.md#delete).
  // Its ports are free at once (docs/worktrees.md#ports).
  await tx.run(sql`DELETE FROM "PortLease" WHERE "worktreeId" IN (SELECT "id" FROM "Worktree" WHERE "sessionPk" = ${s.pk})`);
  await tx.run(sql`UPDATE "Worktree" SET "sessionPk" = NULL, "updatedAt" = ${tx.now} WHERE "sessionPk" = ${s.pk}`);
  await tx.run(
    sql`UPDATE "Token" SET "revokedAt" = ${tx.now} WHERE "principal" = ${s.principal ?? s.name} AND "label" = ${sessionTokenLabel(s.name)} AND "revokedAt" IS NULL`,
  );
  if (s.kind === "member") {
    await tx.run(
      sql`UPDATE "Member" SET "sessionId" = NULL, "status" = 'offline', "lastSeen" = ${tx.now} WHERE "teamId" = ${s.teamId} AND "sessionId" = ${s.name}`,
    );
  }
  await tx.emit({
    teamId: s.teamId,
    type: "session.deleted",
    subject: `session:${s.name}`,
    payload: { name: s.name, pk: s.pk, wasLive: isLive(s.status), interactions: counts?.interactions ?? 0, transcriptEntries: counts?.entries ?? 0, by },
  });
}

/** Delete: removes the session, its transcript and history; a running process is killed. */
export async function deleteSession({ db }: DomainDeps, actor: Principal, input: SessionRef): Promise<{ deleted: string }> {
  return db.write("session.delete", actor.name, async (tx) => {
    const s = await requireSession(tx, input.name);
    await authorizeSession(tx, actor, "session.delete", s);
    await deleteInTx(tx, s, actor.name);
    return { deleted: input.name };
  });
}

/**
 * Cleanup: deletes sessions that ended more than `days` days ago. Running sessions are kept.
 * Without a team it sweeps the whole hub (operator only); with one, that team's (its leads too).
 */
export async function cleanupSessions({ db }: DomainDeps, actor: Principal, input: CleanupInput): Promise<{ deleted: string[] }> {
  return db.write("session.cleanup", actor.name, async (tx) => {
    await authorize(tx, actor, "sessions.cleanup", { team: input.team ?? null });
    const cutoff = new Date(tx.now.getTime() - input.days * 24 * 3600 * 1000);
    const team = input.team === undefined ? EMPTY : sql`AND "teamId" = ${input.team}`;
    const old = await tx.all<SessionRow>(sql`SELECT * FROM "Session" WHERE "status" IN (${ENDED_VALUES}) AND "updatedAt" <= ${cutoff} ${team} ORDER BY "name"`);
    for (const s of old) await deleteInTx(tx, s, actor.name);
    return { deleted: old.map((s) => s.name) };
  });
}
