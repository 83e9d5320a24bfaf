/**
 * The session supervisor: the one place that owns `claude` processes. It carries out what the
 * event log asks for — a session created, resumed, stopped, killed or deleted, a message queued,
 * an approval decided — whichever process wrote the request, and recovers after a restart.
 */
import fs from "node:fs";
import { pruneDeletedWorktrees } from "../domain/worktrees/prune.ts";
import { sweepStrayWorktrees } from "../domain/worktrees/sweep.ts";
import { worktreesDir } from "../domain/worktrees/isolate.ts";
import { z } from "zod";
import type { ClaudeConfig } from "../env.ts";
import type { Runtimes } from "../runtimes.ts";
import type { DomainDeps } from "../domain/deps.ts";
import { admissionPass } from "../domain/sessions/admission.ts";
import { recoverSessions } from "../domain/sessions/recovery.ts";
import { detectStalls, recordExit } from "../domain/sessions/runtime.ts";
import { findSession, teamOf } from "../domain/sessions/sessions.repo.ts";
import { isLive } from "../domain/sessions/states.ts";
import { claimSession } from "../domain/hubs/claim.ts";
import { sql } from "../db/sql.ts";
import { jsonColumn, type SessionRow, type TranscriptEntryRow } from "../db/rows.ts";
import { JsonValue } from "../../lib/api/common.ts";
import { SUPERVISOR } from "../domain/principal.ts";
import type { EventBus } from "../events/bus.ts";
import type { EventType, HubEvent } from "../events/types.ts";
import { DEFAULT_TIMING, type Timing } from "./child-process.ts";
import type { LaunchMode } from "./launch.ts";
import { SessionRunner, sessionDir, type RunnerContext, type SandboxConfig } from "./runner.ts";
import type { TranscriptFeed } from "./transcript-feed.ts";
import { startWakeups } from "./wakeups.ts";
import type { WorktreeCommands } from "./worktree-commands.ts";
import { requireWorktree } from "../domain/worktrees/worktrees.repo.ts";
import { dueHolds, nextReset, releaseDue } from "../domain/accounts/limits.ts";

// Events after which a place may have freed up or the queue changed (a hub that stopped or was lost released its queue).
const ADMISSION_TRIGGERS = new Set<EventType>(["session.queued", "session.exited", "session.deleted", "session.status_changed", "hub.stopped", "hub.lost"]);
/** The one field of a stored transcript line (the CLI's own JSON) that a resume needs. */
const TranscriptUuid = z.object({ uuid: z.string() });

export type SupervisorOptions = {
  deps: DomainDeps & { bus: EventBus };
  claude: ClaudeConfig;
  runtimes: Runtimes;
  /** The admission limit on sessions holding a process (0: none). */
  maxLive: number;
  hubUrl: string;
  dataDir: string;
  hubReadTools: ReadonlySet<string>;
  /** Shared with /ws, which pushes each stored transcript line to its subscribers; told when a process is gone. */
  feed: TranscriptFeed;
  timing?: Timing;
  stallCheckMs?: number;
  /** null: the hub could not sandbox sessions (docs/security.md#sandbox) and runs them as they are. */
  sandbox: SandboxConfig | null;
  /** Work trees' setup, run and archive commands (docs/worktrees.md#runnable-work-trees). */
  commands: WorktreeCommands;
};

export class Supervisor {
  private readonly runners = new Map<number, SessionRunner>();
  /** Sessions asked to yield their place whose process has not ended yet. */
  private readonly yielding = new Set<number>();
  private readonly ctx: RunnerContext;
  private unsubscribe: (() => void) | null = null;
  private stopWakeups: (() => void) | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  /** Wakes the supervisor at the next usage-window reset (docs/limits.md). */
  private resetTimer: NodeJS.Timeout | null = null;
  /**
   * Where a released session's turns start (a time from Date.now()), kept for a session resumed by the release: its
   * process starts after the release is seen, and its first turn must wait for its place as the others' do.
   */
  private readonly releaseSlots = new Map<string, number>();
  private chain: Promise<void> = Promise.resolve();
  private closing = false;

  constructor(private readonly options: SupervisorOptions) {
    this.ctx = {
      deps: options.deps,
      claude: options.claude,
      runtimes: options.runtimes,
      hubUrl: options.hubUrl,
      dataDir: options.dataDir,
      feed: options.feed,
      hubReadTools: options.hubReadTools,
      timing: options.timing ?? DEFAULT_TIMING,
      sandbox: options.sandbox,
      commands: options.commands,
    };
  }

  async start(): Promise<void> {
    const recovered = await recoverSessions(this.options.deps);
    for (const s of recovered.interrupted) endOrphan(s);
    // Work trees of sessions deleted while no hub was there to prune them (docs/worktrees.md#delete).
    await pruneDeletedWorktrees(this.options.deps);
    // Work-tree dirs a crash left between `git worktree add` and the spawn's transaction (docs/worktrees.md#crash-safety).
    await sweepStrayWorktrees(this.options.deps, worktreesDir(this.options.dataDir));
    this.unsubscribe = this.options.deps.bus.subscribe((events) => {
      // In order, one event at a time: a stop must not overtake the creation it follows.
      this.chain = this.chain.then(() => this.dispatch(events)).catch((e) => console.error("[teamhub] supervisor:", e));
    });
    this.stopWakeups = startWakeups(this.options.deps, this.options.maxLive);
    // Holds whose reset came while no hub was running are released now; later ones when they come.
    await this.releaseDueHolds();
    for (const s of recovered.toLaunch) await this.launch(s);
    this.chain = this.chain.then(() => this.admit()).catch((e) => console.error("[teamhub] admission:", e));
    const every = this.options.stallCheckMs ?? Math.min(60_000, Math.max(1000, Math.floor(this.options.claude.stallMs / 4)));
    this.stallTimer = setInterval(() => void this.checkStalls(), every);
    this.stallTimer.unref();
  }

  private async dispatch(events: readonly HubEvent[]): Promise<void> {
    // Before the resumes the same release asked for are launched below, so that their first turns keep their places.
    for (const e of events) if (e.type === "account.released" && e.payload.how !== "cancelled") this.planRelease(e.payload.sessions);
    for (const e of events) {
      if (this.closing) continue;
      if (e.type === "account.limited") {
        await this.scheduleReset();
        continue;
      }
      // A budget changed: turns waiting as `blocked: budget` in that team may start now (docs/budgets.md).
      if (e.type === "budget.set") {
        for (const r of [...this.runners.values()].filter((r) => r.team === e.teamId)) await r.pump();
        continue;
      }
      switch (e.type) {
        case "session.created":
        case "session.resume_requested":
        case "session.admitted": {
          const s = await this.options.deps.db.read((r) => findSession(r, e.payload.name));
          if (s && s.status === "starting" && !this.runners.has(s.pk) && (await this.ours(s))) await this.launch(s);
          break;
        }
        case "session.message_queued":
        case "session.unpaused":
          await this.runnerFor(e.payload.name)?.pump();
          break;
        case "session.stop_requested":
        case "session.kill_requested":
          await this.end(e.payload.name, e.type === "session.stop_requested" ? "stop" : "kill", e.payload.reason);
          break;
        case "session.approval_decided": {
          const { name, status, approvalId, note, decidedBy, rule } = e.payload;
          // A rule allowed for the session applies from now on, without relaunching its process.
          if (rule) this.runnerFor(name)?.allowRule(rule);
          if (status === "allowed" || status === "denied") this.runnerFor(name)?.answerApproval(approvalId, status === "allowed", note, decidedBy);
          break;
        }
        // The run command runs beside the session's process, on the hub that runs the session.
        case "worktree.run_requested":
          await this.runnerFor(e.payload.name)?.startRun();
          break;
        case "worktree.run_stop_requested": {
          const w = await this.options.deps.db.read((s) => requireWorktree(s, e.payload.name)).catch(() => null);
          if (w) await this.options.commands.stopRun(w.id);
          break;
        }
        case "session.deleted": {
          const pk = e.payload.pk;
          const runner = this.runners.get(pk);
          // The CLI writes its config dir (in the session dir) until it has ended.
          void (runner ? runner.kill("deleted") : Promise.resolve())
            .then(() => fs.rmSync(sessionDir(this.options.dataDir, pk), { recursive: true, force: true }))
            .then(() => pruneDeletedWorktrees(this.options.deps))
            .catch((err) => console.error(`[teamhub] removing the files of deleted session ${e.payload.name}:`, err));
          break;
        }
      }
    }
    if (!this.closing && events.some((e) => ADMISSION_TRIGGERS.has(e.type))) await this.admit();
  }

  /** Gives free places to queued sessions in order, and asks idle ones to yield while others wait. */
  private async admit(): Promise<void> {
    // Admitted sessions are launched when their `session.admitted` reaches dispatch, like every other launch.
    const { yielding } = await admissionPass(this.options.deps, this.options.maxLive, this.yielding);
    for (const s of yielding) this.yielding.add(s.pk);
  }

  /** The processes it started and that still run (bubblewrap's, or the CLI's without the sandbox). */
  livePids(): number[] {
    return [...this.runners.values()].flatMap((r) => (r.pid === undefined ? [] : [r.pid]));
  }

  /** Whether this hub runs the session (docs/hubs.md#ownership): it carries this hub's id, or this hub claims it first. */
  private async ours(s: SessionRow): Promise<boolean> {
    const { db } = this.options.deps;
    if (s.hubId !== null) return s.hubId === db.hub;
    return db.write("session.claim", SUPERVISOR.name, async (tx) => {
      const now = await findSession(tx, s.name);
      return now !== undefined && now.status === "starting" && (await claimSession(tx, now));
    });
  }

  private runnerFor(name: string): SessionRunner | undefined {
    for (const r of this.runners.values()) if (r.name === name) return r;
    return undefined;
  }

  private async launch(s: SessionRow): Promise<void> {
    const runner = new SessionRunner(this.ctx, s.pk, s.name, teamOf(s), (r) => {
      this.runners.delete(r.pk);
      this.yielding.delete(r.pk);
      this.options.feed.ended(r.name);
    });
    this.runners.set(s.pk, runner);
    const slot = this.releaseSlots.get(s.name);
    if (slot !== undefined) {
      this.releaseSlots.delete(s.name);
      runner.startNoTurnBefore(slot);
    }
    await runner.launch(await this.modeOf(s));
  }

  /** A conversation the CLI has seen (it sent `init`) is resumed; otherwise it starts fresh or forks. */
  private async modeOf(s: SessionRow): Promise<LaunchMode> {
    const known = await this.options.deps.db.read((r) =>
      r.get(sql`SELECT 1 FROM "TranscriptEntry" WHERE "sessionPk" = ${s.pk} AND "type" = 'system' AND "subtype" = 'init' LIMIT 1`),
    );
    if (known) return { kind: "resume" };
    if (s.parent) {
      const parent = await this.options.deps.db.read((r) => findSession(r, s.parent!));
      if (parent?.claudeSessionId) {
        const parentDir = parent.dir ?? sessionDir(this.options.dataDir, parent.pk);
        return { kind: "fork", from: parent.claudeSessionId, parentDir, through: await this.lastMessage(parent.pk) };
      }
    }
    return { kind: "fresh" };
  }

  /**
   * The id of the last top-level message a session's CLI reported, which its conversation file holds once written
   * (a sub-agent's messages go to files of their own).
   */
  private async lastMessage(pk: number): Promise<string | null> {
    const row = await this.options.deps.db.read((s) =>
      s.get<Pick<TranscriptEntryRow, "payload">>(
        sql`SELECT "payload" FROM "TranscriptEntry" WHERE "sessionPk" = ${pk} AND "direction" = 'out' AND "type" IN ('assistant', 'user') AND "payload" LIKE '%"parent_tool_use_id":null%' ORDER BY "id" DESC LIMIT 1`,
      ),
    );
    return (row && TranscriptUuid.safeParse(jsonColumn(JsonValue, row.payload)).data?.uuid) ?? null;
  }

  /** `reason` is set when the hub itself asks (a session yielding its place, see admission.ts). */
  private async end(name: string, how: "stop" | "kill", reason?: string): Promise<void> {
    const runner = this.runnerFor(name);
    if (runner) {
      // Not awaited: a graceful stop can take a whole turn, and other sessions must not wait for it.
      void (how === "stop" ? runner.stop(reason) : runner.kill());
      return;
    }
    // No process here (it never launched, or the hub restarted): the request ends it directly, unless another hub runs it.
    const s = await this.options.deps.db.read((r) => findSession(r, name));
    if (s && isLive(s.status) && (s.hubId === null || s.hubId === this.options.deps.db.hub)) {
      await recordExit(this.options.deps, s.pk, {
        status: how === "stop" ? "stopped" : "killed",
        reason: how === "stop" ? "stopped" : "killed",
        code: null,
        signal: null,
        error: null,
        stderrTail: "",
      });
    }
  }

  /** Releases every hold whose reset (plus the margin) has passed, then sleeps until the next one. */
  private async releaseDueHolds(): Promise<void> {
    const { marginMs } = this.options.claude.limits;
    const due = await this.options.deps.db.read((s) => dueHolds(s, new Date(), marginMs));
    for (const hold of due) await releaseDue(this.options.deps, hold.account, SUPERVISOR.name, this.options.maxLive);
    await this.scheduleReset();
  }

  private async scheduleReset(): Promise<void> {
    if (this.resetTimer) clearTimeout(this.resetTimer);
    this.resetTimer = null;
    if (this.closing) return;
    const next = await this.options.deps.db.read((s) => nextReset(s));
    if (!next) return;
    const wait = Math.max(0, next.getTime() + this.options.claude.limits.marginMs - Date.now());
    // Timers hold at most about 24 days; a later reset is looked at again then.
    this.resetTimer = setTimeout(
      () => {
        this.chain = this.chain.then(() => this.releaseDueHolds()).catch((e) => console.error("[teamhub] releasing usage holds:", e));
      },
      Math.min(wait, 2 ** 31 - 1),
    );
    this.resetTimer.unref();
  }

  /**
   * The held sessions' turns go again in order, one session every `staggerMs`, so a reset is not one burst: each
   * session's queue opens at its place, whether its process is running or is started by the release (after a restart).
   */
  private planRelease(names: string[]): void {
    const { staggerMs } = this.options.claude.limits;
    const now = Date.now();
    for (const [name, at] of this.releaseSlots) if (at <= now) this.releaseSlots.delete(name);
    names.forEach((name, i) => {
      const runner = this.runnerFor(name);
      if (runner) runner.startNoTurnBefore(now + i * staggerMs);
      else this.releaseSlots.set(name, now + i * staggerMs);
    });
  }

  private async checkStalls(): Promise<void> {
    try {
      const stalled = await detectStalls(this.options.deps, this.options.claude.stallMs);
      if (this.options.claude.interruptStalled) for (const s of stalled) await this.runners.get(s.pk)?.interrupt();
    } catch (e) {
      console.error("[teamhub] stall check failed:", e);
    }
  }

  /** Hub shutdown: sessions are interrupted, not lost; `resume` continues them after the restart. */
  async close(): Promise<void> {
    this.closing = true;
    this.unsubscribe?.();
    this.stopWakeups?.();
    if (this.stallTimer) clearInterval(this.stallTimer);
    if (this.resetTimer) clearTimeout(this.resetTimer);
    await Promise.all([...this.runners.values()].map((r) => r.kill("hub_shutdown", "interrupted")));
    await this.options.commands.close();
    await this.chain;
  }
}

/**
 * A `claude` left over from before a hub crash finishes its turn and exits when its stdin
 * closes; if it is still there, it must not go on writing the conversation we may resume.
 */
function endOrphan(s: SessionRow & { previousPid: number | null }): void {
  if (!s.previousPid || !s.claudeSessionId) return;
  try {
    const cmdline = fs.readFileSync(`/proc/${s.previousPid}/cmdline`, "utf8");
    if (cmdline.includes(s.claudeSessionId)) process.kill(s.previousPid, "SIGTERM");
  } catch {
    // Gone already, or not ours to read: nothing to end.
  }
}
