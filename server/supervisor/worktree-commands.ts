/**
 * A work tree's own commands (docs/worktrees.md#runnable-work-trees): setup before the session's first turn, the run
 * command on request, archive before the tree goes. Each runs as `sh -c <command>` at the work tree's top, in the
 * session's sandbox (the same view of its tree as its `claude`), with a HOME of its own that keeps package caches
 * between commands, and the session's ports in PORT and TEAMHUB_PORTS. Output is stored in pieces and pushed live.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { OutputKind } from "../../lib/api/runnable.ts";
import { clock } from "../../lib/format.ts";
import type { DomainDeps } from "../domain/deps.ts";
import { portEnv, portsOf } from "../domain/worktrees/ports.ts";
import { appendOutput, archived, runExited, runStarted, setupFinished, setupStarted, type WorktreeCommandsPort } from "../domain/worktrees/runnable-records.ts";
import { includedOfRow, runnableOfRow } from "../domain/worktrees/runnable.service.ts";
import type { WorktreeRow } from "../db/rows.ts";
import { worktreeById } from "../domain/worktrees/worktrees.repo.ts";
import { BASE_VARIABLES } from "./launch.ts";
import type { SandboxConfig } from "./runner.ts";
import { sandboxCommand } from "./sandbox.ts";
import type { TranscriptFeed, TranscriptOwner } from "./transcript-feed.ts";

export type CommandsContext = { deps: DomainDeps; dataDir: string; feed: TranscriptFeed; sandbox: SandboxConfig | null };

/** Whose command it is: the session's view of the feed, and the patterns it is protected by. */
export type CommandOwner = { name: string; team: string; owner: TranscriptOwner; protectedPaths: string[] };

type CommandExit = { code: number | null; signal: string | null; timedOut: boolean; lastLine: string; durationMs: number };

// Output pieces are stored at most this often (or when this much has gathered), and at most this much per command.
const FLUSH_MS = 200;
const FLUSH_BYTES = 16 * 1024;
const MAX_STORED = 2 * 1024 * 1024;
// A stop waits this long after SIGTERM before SIGKILL.
const STOP_GRACE_MS = 3000;
// Archive runs with the setup's time limit, but never longer than this: it holds up a discard.
const ARCHIVE_MAX_MS = 5 * 60_000;

/** Where a work tree's commands keep HOME (npm's cache, …): beside the work trees, by row id, gone with the tree. */
export const commandHome = (dataDir: string, worktreeId: number) => path.join(dataDir, "homes", String(worktreeId));

/** One running command: its output stored and pushed as it comes, its end as a promise. */
class RunningCommand {
  readonly done: Promise<CommandExit>;
  private buffer = "";
  private stored = 0;
  private dropped = 0;
  private lastLine = "";
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly started = Date.now();
  private timedOut = false;

  constructor(
    private readonly ctx: CommandsContext,
    private readonly child: ChildProcess,
    private readonly w: WorktreeRow,
    private readonly kind: OutputKind,
    private readonly owner: CommandOwner | null,
    timeoutMs: number | null,
  ) {
    const limit = timeoutMs === null ? null : setTimeout(() => ((this.timedOut = true), this.signal("SIGKILL")), timeoutMs);
    const take = (b: Buffer) => this.take(b.toString("utf8"));
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    // bubblewrap's status fd: read and ignored, so it never blocks on a full pipe.
    (child.stdio[3] as NodeJS.ReadableStream | undefined)?.on?.("data", () => undefined);
    this.done = new Promise((resolve) => {
      child.on("error", (e) => this.take(`${e.message}\n`));
      child.on("close", (code, signal) => {
        if (limit) clearTimeout(limit);
        if (this.timer) clearTimeout(this.timer);
        void this.flush().then(() => resolve({ code, signal, timedOut: this.timedOut, lastLine: this.lastLine, durationMs: Date.now() - this.started }));
      });
    });
  }

  private take(text: string): void {
    const lines = text.split("\n").filter((l) => l.trim());
    if (lines.length) this.lastLine = lines[lines.length - 1].trim().slice(0, 500);
    if (this.stored + this.buffer.length + text.length > MAX_STORED) {
      this.dropped += text.length;
      return;
    }
    this.buffer += text;
    if (this.buffer.length >= FLUSH_BYTES) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** Stores what has gathered, one piece at a time in order. */
  private flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    let text = this.buffer;
    this.buffer = "";
    if (this.dropped && this.child.exitCode !== null) text += `\n[teamhub: ${this.dropped} more characters of output were not kept]\n`;
    if (!text) return this.flushing;
    this.stored += text.length;
    this.flushing = this.flushing.then(async () => {
      const piece = await appendOutput(this.ctx.deps, this.w.id, this.kind, text).catch((e) => {
        console.error(`[teamhub] storing ${this.kind} output of ${this.w.session}:`, e);
        return null;
      });
      if (piece && this.owner) {
        const { name, team, owner } = this.owner;
        this.ctx.feed.publish({ session: name, team, owner, output: { id: piece.id, kind: this.kind, text, at: piece.at } });
      }
    });
    return this.flushing;
  }

  signal(sig: NodeJS.Signals): void {
    // Its own process group: bubblewrap (whose end ends the sandbox) or the shell and what it started.
    try {
      if (this.child.pid) process.kill(-this.child.pid, sig);
    } catch {
      // Gone already.
    }
  }

  /** SIGTERM, then SIGKILL if it is still there after the grace period. */
  async stop(): Promise<CommandExit> {
    this.signal("SIGTERM");
    const grace = setTimeout(() => this.signal("SIGKILL"), STOP_GRACE_MS);
    const exit = await this.done;
    clearTimeout(grace);
    return exit;
  }
}

/** "setup failed (exit 3): npm ERR! missing script" — what needs-attention and the session view say. */
export function failureText(kind: OutputKind, exit: CommandExit, timeoutMs: number | null): string | null {
  if (exit.timedOut) return `${kind} timed out after ${clock(timeoutMs ?? exit.durationMs)} and was killed`;
  if (exit.code === 0) return null;
  const how = exit.code !== null ? `exit ${exit.code}` : `ended by ${exit.signal ?? "a signal"}`;
  return `${kind} failed (${how})${exit.lastLine ? `: ${exit.lastLine}` : ""}`;
}

export class WorktreeCommands implements WorktreeCommandsPort {
  /** Run commands by work tree id, with their end once recorded; setup by work tree id while it runs (a stop of the session ends it). */
  private readonly runs = new Map<number, { command: RunningCommand; recorded: Promise<void> }>();
  private readonly setups = new Map<number, RunningCommand>();

  constructor(private readonly ctx: CommandsContext) {}

  private async start(w: WorktreeRow, kind: OutputKind, command: string, owner: CommandOwner | null, timeoutMs: number | null): Promise<RunningCommand> {
    const tree = w.path!;
    const home = commandHome(this.ctx.dataDir, w.id);
    fs.mkdirSync(home, { recursive: true, mode: 0o700 });
    const env: Record<string, string> = {};
    for (const name of BASE_VARIABLES) if (process.env[name] !== undefined) env[name] = process.env[name]!;
    Object.assign(env, { HOME: home, TEAMHUB_SESSION: w.session, ...portEnv(await this.ctx.deps.db.read((sql) => portsOf(sql, w.id))) });
    delete env.TMPDIR; // the sandbox's /tmp is its own
    // A fresh HOME makes npm look for its own update every time: nothing a work tree's setup needs.
    env.npm_config_update_notifier = "false";
    const sandbox = this.ctx.sandbox;
    const cmd = sandbox
      ? await sandboxCommand({
          bwrap: sandbox.bwrap,
          hidden: sandbox.hidden,
          bin: "/bin/sh",
          args: ["-c", command],
          workDir: tree,
          ownTree: tree,
          env,
          home,
          protectedPaths: owner?.protectedPaths ?? [],
          readable: includedOfRow(w).map((rel) => path.join(tree, rel)),
        })
      : { bin: "/bin/sh", args: ["-c", command], cwd: tree };
    const child = spawn(cmd.bin, cmd.args, { cwd: cmd.cwd, env: env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe", "pipe"] });
    return new RunningCommand(this.ctx, child, w, kind, owner, timeoutMs);
  }

  /**
   * Runs the work tree's setup (its status pending or interrupted by a crash) and records the outcome; a stop of the
   * session meanwhile ends it (`cancel`). Returns the failure in words, or null when the tree is ready.
   */
  async setup(w: WorktreeRow, owner: CommandOwner): Promise<string | null> {
    const config = runnableOfRow(w);
    if (!config?.setup || w.setupStatus === "succeeded") return null;
    await setupStarted(this.ctx.deps, w, config.setup, config.source);
    const running = await this.start(w, "setup", config.setup, owner, config.setupTimeoutMs);
    this.setups.set(w.id, running);
    const exit = await running.done.finally(() => this.setups.delete(w.id));
    const error = failureText("setup", exit, config.setupTimeoutMs);
    await setupFinished(this.ctx.deps, w, { status: error ? "failed" : "succeeded", exitCode: exit.code, durationMs: exit.durationMs, error });
    return error;
  }

  /** Ends a setup under way (the session is stopped or killed while it runs). */
  async cancelSetup(worktreeId: number): Promise<void> {
    await this.setups.get(worktreeId)?.stop();
  }

  /** Starts the run command; it ends with the session, on request, or by itself. */
  async startRun(w: WorktreeRow, owner: CommandOwner): Promise<void> {
    const config = runnableOfRow(w);
    if (!config?.run || this.runs.has(w.id) || !w.path) return;
    const ports = await this.ctx.deps.db.read((sql) => portsOf(sql, w.id));
    const command = await this.start(w, "run", config.run, owner, null);
    await runStarted(this.ctx.deps, w, config.run, ports[0] ?? null);
    const recorded = command.done.then(async (exit) => {
      const stopped = exit.signal === "SIGTERM" || exit.signal === "SIGKILL";
      await runExited(this.ctx.deps, w, { status: stopped ? "stopped" : "exited", exitCode: exit.code, signal: exit.signal }).catch((e) =>
        console.error(`[teamhub] recording the end of ${w.session}'s run command:`, e),
      );
      this.runs.delete(w.id);
    });
    this.runs.set(w.id, { command, recorded });
  }

  /** Stops the run command and returns once its end is recorded. */
  async stopRun(worktreeId: number): Promise<void> {
    const run = this.runs.get(worktreeId);
    if (!run) return;
    await run.command.stop();
    await run.recorded;
  }

  /** Before a work tree goes: its run command is stopped, its archive command runs (a failure is reported, never thrown), its HOME goes. */
  async beforeRemove(w: WorktreeRow): Promise<void> {
    await this.stopRun(w.id);
    const config = runnableOfRow(w);
    if (config?.archive && w.path && fs.existsSync(w.path)) {
      const limit = Math.min(config.setupTimeoutMs, ARCHIVE_MAX_MS);
      try {
        const row = (await this.ctx.deps.db.read((sql) => worktreeById(sql, w.id))) ?? w;
        const exit = await (await this.start(row, "archive", config.archive, null, limit)).done;
        const error = failureText("archive", exit, limit);
        await archived(this.ctx.deps, w, { ok: error === null, exitCode: exit.code, error });
      } catch (e) {
        await archived(this.ctx.deps, w, { ok: false, exitCode: null, error: `archive could not start: ${(e as Error).message}` }).catch(() => undefined);
      }
    }
    fs.rmSync(commandHome(this.ctx.dataDir, w.id), { recursive: true, force: true });
  }

  /** Hub shutdown: every run command and setup ends. */
  async close(): Promise<void> {
    await Promise.all([...this.runs.keys()].map((id) => this.stopRun(id)));
    await Promise.all([...this.setups.values()].map((s) => s.stop()));
  }
}
