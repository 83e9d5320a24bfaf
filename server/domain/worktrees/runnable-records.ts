/**
 * What the supervisor records while a work tree's setup, run and archive commands run (docs/worktrees.md#runnable-work-trees):
 * each state change one transaction with its event; output pieces stored like transcript lines, without events (they
 * are many, and live readers get them from the feed).
 */
import { sql } from "../../db/sql.ts";
import type { ProcessOutputRow, WorktreeRow } from "../../db/rows.ts";
import type { OutputKind } from "../../../lib/api/runnable.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR } from "../principal.ts";
import { worktreeById } from "./worktrees.repo.ts";

/** What the supervisor runs archive with; absent where no hub runs commands (a domain used without one). */
export type WorktreeCommandsPort = {
  /** Runs the work tree's archive command, if it has one, and stops its run command; never throws. */
  beforeRemove(w: WorktreeRow): Promise<void>;
};

export type SetupEnd = { status: "succeeded" | "failed"; exitCode: number | null; durationMs: number; error: string | null };

export async function setupStarted({ db }: DomainDeps, w: WorktreeRow, command: string, source: string): Promise<void> {
  await db.write("worktree.setup_started", SUPERVISOR.name, async (tx) => {
    await tx.run(
      sql`UPDATE "Worktree" SET "setupStatus" = 'running', "setupStartedAt" = ${tx.now}, "setupFinishedAt" = NULL, "setupExitCode" = NULL, "setupError" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`,
    );
    await tx.run(sql`DELETE FROM "ProcessOutput" WHERE "worktreeId" = ${w.id} AND "kind" = 'setup'`);
    await tx.emit({ teamId: w.teamId, type: "worktree.setup_started", subject: `session:${w.session}`, payload: { name: w.session, command, source } });
  });
}

export async function setupFinished({ db }: DomainDeps, w: WorktreeRow, end: SetupEnd): Promise<void> {
  await db.write("worktree.setup_finished", SUPERVISOR.name, async (tx) => {
    await tx.run(
      sql`UPDATE "Worktree" SET "setupStatus" = ${end.status}, "setupExitCode" = ${end.exitCode}, "setupError" = ${end.error}, "setupFinishedAt" = ${tx.now}, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`,
    );
    await tx.emit({ teamId: w.teamId, type: "worktree.setup_finished", subject: `session:${w.session}`, payload: { name: w.session, ...end } });
  });
}

export async function runStarted({ db }: DomainDeps, w: WorktreeRow, command: string, port: number | null): Promise<void> {
  await db.write("worktree.run_started", SUPERVISOR.name, async (tx) => {
    await tx.run(
      sql`UPDATE "Worktree" SET "runStatus" = 'running', "runStartedAt" = ${tx.now}, "runEndedAt" = NULL, "runExitCode" = NULL, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`,
    );
    await tx.run(sql`DELETE FROM "ProcessOutput" WHERE "worktreeId" = ${w.id} AND "kind" = 'run'`);
    await tx.emit({ teamId: w.teamId, type: "worktree.run_started", subject: `session:${w.session}`, payload: { name: w.session, command, port } });
  });
}

export async function runExited(
  { db }: DomainDeps,
  w: WorktreeRow,
  end: { status: "exited" | "stopped"; exitCode: number | null; signal: string | null },
): Promise<void> {
  await db.write("worktree.run_exited", SUPERVISOR.name, async (tx) => {
    // The row may be gone (its branch discarded) by the time the process has ended.
    if (!(await worktreeById(tx, w.id))) return;
    await tx.run(
      sql`UPDATE "Worktree" SET "runStatus" = ${end.status}, "runExitCode" = ${end.exitCode}, "runEndedAt" = ${tx.now}, "updatedAt" = ${tx.now} WHERE "id" = ${w.id}`,
    );
    await tx.emit({ teamId: w.teamId, type: "worktree.run_exited", subject: `session:${w.session}`, payload: { name: w.session, ...end } });
  });
}

export async function archived({ db }: DomainDeps, w: WorktreeRow, end: { ok: boolean; exitCode: number | null; error: string | null }): Promise<void> {
  await db.write("worktree.archived", SUPERVISOR.name, async (tx) => {
    await tx.emit({ teamId: w.teamId, type: "worktree.archived", subject: `session:${w.session}`, payload: { name: w.session, ...end } });
  });
}

/** One piece of a command's output; null when its work tree's row is gone. */
export async function appendOutput({ db }: DomainDeps, worktreeId: number, kind: OutputKind, text: string): Promise<{ id: number; at: Date } | null> {
  return db.write("worktree.output", SUPERVISOR.name, async (tx) => {
    if (!(await worktreeById(tx, worktreeId))) return null;
    const r = await tx.get<Pick<ProcessOutputRow, "id">>(
      sql`INSERT INTO "ProcessOutput" ("worktreeId","kind","text","createdAt") VALUES (${worktreeId},${kind},${text},${tx.now}) RETURNING "id"`,
    );
    return { id: r!.id, at: tx.now };
  });
}
