/**
 * A session's runnable work tree as the doors see it (docs/worktrees.md#runnable-work-trees): its config, ports, setup
 * and run state, the output of its commands, and a person's requests — set up again, start or stop the run command.
 * Requests are recorded here; the supervisor of the hub that runs the session carries them out when they commit.
 */
import { z } from "zod";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { sql } from "../../db/sql.ts";
import { jsonColumnOrNull, stringsOf, type ProcessOutputRow, type SessionRow, type WorktreeRow } from "../../db/rows.ts";
import { DomainError } from "../../errors.ts";
import {
  RUN_STATUSES,
  RunnableView,
  SETUP_STATUSES,
  type OutputInput,
  type OutputKind,
  type OutputPiece,
  type OutputView,
  type RunInput,
  type RunnableInput,
  type RunnableState,
} from "../../../lib/api/runnable.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { authorizeSession } from "../sessions/ownership.ts";
import { requestResume } from "../sessions/control.service.ts";
import { requireSession, teamOf } from "../sessions/sessions.repo.ts";
import { ENDED, isLive } from "../sessions/states.ts";
import { teamSettings } from "../teams/settings.ts";
import { resolveRef } from "./git.ts";
import { portsOf } from "./ports.ts";
import { runnableAt } from "./runnable-config.ts";
import { worktreeOfSession } from "./worktrees.repo.ts";

// One read of a command's output returns at most this many pieces; a follower asks again from the last id.
const OUTPUT_PAGE = 500;

export const runnableOfRow = (w: WorktreeRow): RunnableView | null => jsonColumnOrNull(RunnableView, w.runnable);
export const includedOfRow = (w: WorktreeRow): string[] => stringsOf(w.included);

// The status columns are plain text: read back as the statuses the view names.
const SetupStatus = z.enum(SETUP_STATUSES).nullable();
const RunStatus = z.enum(RUN_STATUSES).nullable();

async function requireOwnTree(s: Sql, session: SessionRow): Promise<WorktreeRow> {
  const w = await worktreeOfSession(s, session.pk);
  if (!w?.path) {
    throw new DomainError("precondition_failed", `name: session '${session.name}' has no work tree of its own (isolation: shared); setup and run need one`, {
      field: "name",
      rule: "has_worktree",
      name: session.name,
    });
  }
  return w;
}

export async function stateOf(s: Sql, session: SessionRow, w: WorktreeRow): Promise<RunnableState> {
  const ports = await portsOf(s, w.id);
  return {
    name: session.name,
    config: runnableOfRow(w),
    included: includedOfRow(w),
    ports,
    setup: {
      status: SetupStatus.parse(w.setupStatus),
      exitCode: w.setupExitCode,
      error: w.setupError,
      startedAt: w.setupStartedAt,
      finishedAt: w.setupFinishedAt,
    },
    run: {
      status: RunStatus.parse(w.runStatus),
      exitCode: w.runExitCode,
      startedAt: w.runStartedAt,
      endedAt: w.runEndedAt,
      url: w.runStatus === "running" && ports.length ? `http://localhost:${ports[0]}` : null,
    },
  };
}

/** The session's runnable work tree: who may read the session may read this. */
export async function runnableState({ db }: DomainDeps, actor: Principal, input: RunnableInput): Promise<RunnableState> {
  return db.read(async (s) => {
    const session = await requireSession(s, input.name);
    await authorizeSession(s, actor, "session.read", session);
    return stateOf(s, session, await requireOwnTree(s, session));
  });
}

const running = (w: WorktreeRow, kind: OutputKind) => (kind === "setup" ? w.setupStatus === "running" : kind === "run" ? w.runStatus === "running" : false);

/** What setup, run or archive printed, after a piece id (to follow it). */
export async function processOutput({ db }: DomainDeps, actor: Principal, input: OutputInput): Promise<OutputView> {
  return db.read(async (s) => {
    const session = await requireSession(s, input.name);
    await authorizeSession(s, actor, "session.read", session);
    const w = await requireOwnTree(s, session);
    const rows = await s.all<Pick<ProcessOutputRow, "id" | "text" | "createdAt">>(
      sql`SELECT "id","text","createdAt" FROM "ProcessOutput" WHERE "worktreeId" = ${w.id} AND "kind" = ${input.kind} AND "id" > ${input.after ?? 0} ORDER BY "id" LIMIT ${OUTPUT_PAGE}`,
    );
    const pieces: OutputPiece[] = rows.map((r) => ({ id: r.id, kind: input.kind, text: r.text, at: r.createdAt }));
    return { name: session.name, kind: input.kind, pieces, running: running(w, input.kind) || rows.length === OUTPUT_PAGE };
  });
}

/**
 * Set up again: the config is read anew from the base branch (a fix merged there applies), the setup goes back to
 * pending, and an ended session is resumed, which runs setup before its queued turns. A live session's process started
 * after its setup, so it must be stopped first.
 */
export async function rerunSetup(deps: DomainDeps, actor: Principal, input: RunnableInput, maxLive: number): Promise<RunnableState> {
  const { session, w } = await deps.db.read(async (s) => {
    const session = await requireSession(s, input.name);
    await authorizeSession(s, actor, "session.resume", session);
    return { session, w: await requireOwnTree(s, session) };
  });
  const at = (w.baseBranch && (await resolveRef(w.repoDir, `refs/heads/${w.baseBranch}`))) || w.baseCommit;
  const teamDefault = (await deps.db.read((s) => teamSettings(s, teamOf(session)))).worktree;
  const config = await runnableAt(w.repoDir, at, teamDefault);
  return deps.db.write("worktree.setup", actor.name, async (tx) => {
    const now = await requireSession(tx, input.name);
    await authorizeSession(tx, actor, "session.resume", now);
    const tree = await requireOwnTree(tx, now);
    if (tree.id !== w.id) throw new DomainError("conflict", `name: session '${now.name}' changed work trees meanwhile; try again`, { field: "name" });
    if (!(ENDED as string[]).includes(now.status)) {
      throw new DomainError("illegal_transition", `session '${now.name}' is ${now.status}; stop it before setting its work tree up again`, {
        field: "name",
        current: now.status,
        operation: "setup",
      });
    }
    if (!config?.setup) {
      throw new DomainError("precondition_failed", `name: the base branch of session '${now.name}' configures no setup command (teamhub.json worktree.setup)`, {
        field: "name",
        rule: "has_setup",
      });
    }
    await tx.run(
      sql`UPDATE "Worktree" SET "runnable" = ${JSON.stringify(config)}, "setupStatus" = 'pending', "setupExitCode" = NULL, "setupError" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`,
    );
    await tx.emit({ teamId: now.teamId, type: "worktree.setup_requested", subject: `session:${now.name}`, payload: { name: now.name, by: actor.name } });
    await requestResume(tx, now, `setup requested by ${actor.name}`, maxLive);
    return stateOf(tx, now, (await worktreeOfSession(tx, now.pk))!);
  });
}

/** Start (or with `stop`, stop) the repository's run command in the session's work tree. */
export async function requestRun({ db }: DomainDeps, actor: Principal, input: RunInput): Promise<RunnableState> {
  return db.write(input.stop ? "worktree.run_stop" : "worktree.run", actor.name, async (tx) => {
    const s = await requireSession(tx, input.name);
    await authorizeSession(tx, actor, "session.send", s);
    const w = await requireOwnTree(tx, s);
    if (input.stop) {
      if (w.runStatus !== "running") throw new DomainError("illegal_transition", `the run command of session '${s.name}' is not running`, { field: "name" });
      await emitRun(tx, s, "worktree.run_stop_requested", actor);
      return stateOf(tx, s, w);
    }
    const config = runnableOfRow(w);
    if (!config?.run) {
      throw new DomainError("precondition_failed", `name: session '${s.name}' has no run command (teamhub.json worktree.run)`, {
        field: "name",
        rule: "has_run",
      });
    }
    if (!isLive(s.status) || s.status === "queued") {
      throw new DomainError("illegal_transition", `session '${s.name}' is ${s.status}; its run command starts only while it runs`, {
        field: "name",
        current: s.status,
        operation: "run",
      });
    }
    if (w.setupStatus !== null && w.setupStatus !== "succeeded") {
      throw new DomainError("precondition_failed", `name: the setup of session '${s.name}' is ${w.setupStatus}; run starts after a successful setup`, {
        field: "name",
        rule: "setup_succeeded",
      });
    }
    if (w.runStatus === "running") throw new DomainError("conflict", `the run command of session '${s.name}' is running already`, { field: "name" });
    await emitRun(tx, s, "worktree.run_requested", actor);
    return stateOf(tx, s, w);
  });
}

async function emitRun(tx: WriteTx, s: SessionRow, type: "worktree.run_requested" | "worktree.run_stop_requested", actor: Principal) {
  await tx.emit({ teamId: s.teamId, type, subject: `session:${s.name}`, payload: { name: s.name, by: actor.name } });
}
