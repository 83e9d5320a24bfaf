/** Supervised sessions (docs/sessions.md), their permission requests, and their git work trees (docs/worktrees.md). */
import type { Operations } from "../operations.ts";
import { batchSpawn, forkSession, spawnSession, teamSpawn } from "../domain/sessions/spawn.service.ts";
import { cleanupSessions, deleteSession, killSession, pauseSession, resumeSession, sendMessage, stopSession } from "../domain/sessions/control.service.ts";
import { lastOutput, listSessions, sessionHistory, sessionStatus, transcript } from "../domain/sessions/queries.service.ts";
import { countApprovals, decideApproval, decideApprovals, listApprovals } from "../domain/sessions/approvals.ts";
import { retryTurn } from "../domain/sessions/retry.ts";
import { abortTask, continueTask, delegate, finishTask } from "../domain/sessions/delegate.service.ts";
import { overlaps, sessionChanges } from "../domain/worktrees/changes.service.ts";
import { discardSession, mergeSession } from "../domain/worktrees/merge.service.ts";
import { compareBranches } from "../domain/worktrees/compare.service.ts";
import { leftBranches } from "../domain/worktrees/left-branches.ts";
import { processOutput, requestRun, rerunSetup, runnableState } from "../domain/worktrees/runnable.service.ts";
import { listRuntimes } from "../domain/runtimes/runtimes.service.ts";
import type { ServiceContext } from "./context.ts";

export const sessionServices = ({ deps, defaults, preflight }: ServiceContext) =>
  ({
    spawn: (a, i) => preflight([i.runtime], () => spawnSession(deps, a, i, defaults)),
    batch: (a, i) =>
      preflight(
        i.sessions.map((s) => s.runtime),
        () => batchSpawn(deps, a, i, defaults),
      ),
    // A fork runs its parent's runtime, and only the default one can fork (forkSession refuses the others).
    fork: (a, i) => preflight([undefined], () => forkSession(deps, a, i, defaults)),
    teamSpawn: (a, i) => preflight([i.runtime], () => teamSpawn(deps, a, i, defaults)),
    delegate: (a, i, signal) => preflight([i.runtime], () => delegate(deps, a, i, defaults, signal)),
    send: (a, i, signal) => sendMessage(deps, a, i, defaults.maxLive, signal),
    continue: (a, i, signal) => continueTask(deps, a, i, defaults.maxLive, signal),
    finish: (a, i) => finishTask(deps, a, i),
    abort: (a, i) => abortTask(deps, a, i),
    pause: (a, i) => pauseSession(deps, a, i),
    resume: (a, i) => resumeSession(deps, a, i, defaults.maxLive),
    retry: (a, i) => retryTurn(deps, a, i, defaults.maxLive),
    stop: (a, i) => stopSession(deps, a, i),
    kill: (a, i) => killSession(deps, a, i),
    delete: (a, i) => deleteSession(deps, a, i),
    cleanup: (a, i) => cleanupSessions(deps, a, i),
    status: (a, i) => sessionStatus(deps, a, i),
    output: (a, i) => lastOutput(deps, a, i),
    list: (a, i) => listSessions(deps, a, i),
    history: (a, i) => sessionHistory(deps, a, i),
    transcript: (a, i) => transcript(deps, a, i),
    approvals: (a, i) => listApprovals(deps, a, i),
    approvalCount: (_, i) => countApprovals(deps, i),
    decide: (a, i) => decideApproval(deps, a, i),
    decideMany: (a, i) => decideApprovals(deps, a, i),
  }) satisfies Operations<"sessions">;

export const runtimeServices = ({ info }: ServiceContext) => ({ list: async () => listRuntimes(info.runtimes) }) satisfies Operations<"runtimes">;

export const worktreeServices = ({ deps, info }: ServiceContext) =>
  ({
    changes: (a, i) => sessionChanges(deps, a, i),
    merge: (a, i) => mergeSession(deps, a, i),
    discard: (a, i) => discardSession(deps, a, i),
    /** Runnable work trees (docs/worktrees.md#runnable-work-trees). */
    runnable: (a, i) => runnableState(deps, a, i),
    commandOutput: (a, i) => processOutput(deps, a, i),
    setup: (a, i) => rerunSetup(deps, a, i, info.maxLiveSessions),
    run: (a, i) => requestRun(deps, a, i),
    overlaps: (_, i) => overlaps(deps, i),
    compare: (a, i) => compareBranches(deps, a, i),
    leftBranches: (_, i) => leftBranches(deps, i),
  }) satisfies Operations<"worktrees">;
