/**
 * One running `claude -p` process in stream-json mode: NDJSON in and out, control requests with
 * answers, a bounded stderr tail, the documented shutdown order, and a typed reason for every
 * exit. It knows nothing of sessions or the database; the runner above it does.
 */
import { z } from "zod";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import readline from "node:readline";
import type { Readable } from "node:stream";
import { classify, controlRequest, type OutputMessage } from "./protocol.ts";
import { stdioWith } from "./sandbox.ts";

/** bubblewrap's `--info-fd` line that names the sandboxed process. */
const BwrapStatus = z.object({ "child-pid": z.number().int() });

export type ExitReason =
  /** We closed stdin and it finished on its own. */
  | "stopped"
  /** We interrupted and signalled it (kill, or a stop that did not finish in time). */
  | "killed"
  /** It exited or died without being asked to. */
  | "crashed"
  /** It never started (binary missing, not executable). */
  | "spawn_failed";

/** How a process that started ended, by what the hub had asked of it. */
export const exitReason = (requested: "stop" | "kill" | null): ExitReason => (requested === "kill" ? "killed" : requested === "stop" ? "stopped" : "crashed");

export type Exit = { reason: ExitReason; code: number | null; signal: NodeJS.Signals | null; stderrTail: string; error?: string };

export type ProcessHandlers = {
  /** Every stdout line, raw and classified, in order. */
  onMessage(raw: Record<string, unknown>, message: OutputMessage): void;
  /** A stdout line that is not JSON (should not happen; kept for the transcript). */
  onNoise(line: string): void;
  onExit(exit: Exit): void;
};

export type Timing = { stopGraceMs: number; interruptGraceMs: number; termGraceMs: number; controlTimeoutMs: number };

export const DEFAULT_TIMING: Timing = { stopGraceMs: 30_000, interruptGraceMs: 3_000, termGraceMs: 3_000, controlTimeoutMs: 10_000 };

/**
 * Sessions run below the hub's priority: a few `claude` processes starting at once would otherwise
 * take the cores from the hub's event loop, and every request (health, dashboard, MCP) would wait
 * (measured: /api/health p99 154 ms → 32 ms under 50 spawns on 2 cores). Two settings make it so:
 * - The process's own niceness, set before the binary runs, through nice(1), so that every process it
 *   starts inherits it. Lowered after spawn, bubblewrap had often forked the CLI already, which then ran
 *   at the hub's priority (seen in `ps`: bwrap at 10, claude at 0).
 * - Its autogroup's. The process leads a session of its own (the sandbox's: it has no controlling
 *   terminal whose input it could inject into), and a kernel with autogroups shares the CPU between
 *   sessions before it looks at niceness: at nice 0, each session's autogroup weighed as much as
 *   the hub's whole one.
 */
const SESSION_NICENESS = 10;
const NICE = ["/usr/bin/nice", "/bin/nice"].find(executable);

// Enough of stderr to explain a crash, without letting a chatty process grow the hub.
const STDERR_TAIL_BYTES = 16 * 1024;

export class ClaudeProcess {
  private readonly child: ChildProcessWithoutNullStreams;
  private stderrTail = "";
  private innerPid: number | undefined;
  private requested: "stop" | "kill" | null = null;
  private exited: Exit | null = null;
  private readonly exitWaiters: Array<(e: Exit) => void> = [];
  private readonly pendingControl = new Map<string, { resolve(v: unknown): void; reject(e: Error): void; timer: NodeJS.Timeout }>();

  constructor(
    bin: string,
    args: string[],
    /** `statusFd`: the binary is bubblewrap reporting on that fd the pid of the CLI it runs, which signals must reach. */
    options: { cwd: string; env: Record<string, string>; statusFd?: number },
    private readonly handlers: ProcessHandlers,
    private readonly timing: Timing = DEFAULT_TIMING,
  ) {
    const stdio = stdioWith(options.statusFd);
    // nice(1) execs the binary in its own process, so the pid is the binary's. A binary that cannot run is
    // spawned directly: its spawn fails here, as spawn_failed, rather than as nice's exit 127.
    const found = NICE === undefined ? undefined : onPath(bin, options.env.PATH);
    const niced = NICE !== undefined && found !== undefined;
    const [file, argv] = niced ? [NICE, ["-n", String(SESSION_NICENESS), found, ...args]] : [bin, args];
    this.child = spawn(file, argv, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio, detached: true }) as ChildProcessWithoutNullStreams;
    if (this.child.pid !== undefined) lowerPriority(this.child.pid, niced);
    if (options.statusFd) this.readStatus(this.child.stdio[options.statusFd] as Readable);
    this.child.stdin.on("error", () => {
      // EPIPE after the process died; the exit handler reports it.
    });
    this.child.stderr.on("data", (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString("utf8")).slice(-STDERR_TAIL_BYTES);
    });
    readline.createInterface({ input: this.child.stdout, crlfDelay: Infinity }).on("line", (line) => this.line(line));
    this.child.once("error", (e: NodeJS.ErrnoException) => {
      if (this.child.pid === undefined)
        this.finish({ reason: "spawn_failed", code: null, signal: null, stderrTail: this.stderrTail, error: `${bin}: ${e.message}` });
    });
    this.child.once("close", (code, signal) => {
      this.finish({ reason: exitReason(this.requested), code, signal, stderrTail: this.stderrTail });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  private readStatus(stream: Readable) {
    readline.createInterface({ input: stream, crlfDelay: Infinity }).on("line", (line) => {
      try {
        const status = BwrapStatus.safeParse(JSON.parse(line));
        if (status.success) this.innerPid = status.data["child-pid"];
      } catch {
        // Not a status line; bubblewrap writes only JSON here.
      }
    });
  }

  /** SIGTERM must reach the CLI itself (inside a sandbox, bubblewrap would die without passing it on); SIGKILL ends the whole sandbox. */
  private signal(signal: NodeJS.Signals) {
    if (signal === "SIGKILL" || this.innerPid === undefined) return void this.child.kill(signal);
    try {
      process.kill(this.innerPid, signal);
    } catch {
      this.child.kill(signal);
    }
  }

  get alive(): boolean {
    return this.exited === null;
  }

  private line(line: string) {
    if (!line.trim()) return;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return this.handlers.onNoise(line);
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return this.handlers.onNoise(line);
    const message = classify(raw as Record<string, unknown>);
    if (message.kind === "control_response") {
      const pending = this.pendingControl.get(message.msg.response.request_id);
      if (pending) {
        this.pendingControl.delete(message.msg.response.request_id);
        clearTimeout(pending.timer);
        if (message.msg.response.subtype === "success") pending.resolve(message.msg.response.response ?? {});
        else pending.reject(new Error(message.msg.response.error ?? "control request failed"));
      }
    }
    this.handlers.onMessage(raw as Record<string, unknown>, message);
  }

  private finish(exit: Exit) {
    if (this.exited) return;
    this.exited = exit;
    for (const p of this.pendingControl.values()) {
      clearTimeout(p.timer);
      p.reject(new Error("the process exited"));
    }
    this.pendingControl.clear();
    this.handlers.onExit(exit);
    for (const w of this.exitWaiters.splice(0)) w(exit);
  }

  /** Writes one JSON line. A bad line would kill the CLI, so only objects we built go here. */
  write(message: Record<string, unknown>): boolean {
    if (!this.alive || this.child.stdin.destroyed || this.child.stdin.writableEnded) return false;
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return true;
  }

  /** Sends a control request and resolves with the CLI's answer. */
  request(request: Record<string, unknown>): Promise<unknown> {
    const id = randomUUID();
    return new Promise((resolve, reject) => {
      if (!this.write(controlRequest(id, request))) return reject(new Error("the process is not running"));
      const timer = setTimeout(() => {
        this.pendingControl.delete(id);
        reject(new Error(`no answer to control request '${String(request.subtype)}' within ${this.timing.controlTimeoutMs} ms`));
      }, this.timing.controlTimeoutMs);
      this.pendingControl.set(id, { resolve, reject, timer });
    });
  }

  waitForExit(): Promise<Exit> {
    return this.exited ? Promise.resolve(this.exited) : new Promise((r) => this.exitWaiters.push(r));
  }

  private exitWithin(ms: number): Promise<boolean> {
    if (!this.alive) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      timer.unref();
      void this.waitForExit().then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Interrupts the current turn; the process stays alive and answers with an error result. */
  async interrupt(): Promise<boolean> {
    try {
      await this.request({ subtype: "interrupt" });
      return true;
    } catch {
      return false;
    }
  }

  /** Graceful: close stdin so a running turn finishes, then escalate if it does not exit in time. */
  async stop(): Promise<Exit> {
    if (!this.requested) this.requested = "stop";
    this.child.stdin.end();
    if (await this.exitWithin(this.timing.stopGraceMs)) return this.waitForExit();
    return this.kill();
  }

  /** interrupt → SIGTERM → SIGKILL, each given a short grace period. */
  async kill(): Promise<Exit> {
    this.requested = "kill";
    if (this.alive) {
      void this.interrupt();
      this.child.stdin.end();
      if (!(await this.exitWithin(this.timing.interruptGraceMs))) {
        this.signal("SIGTERM");
        if (!(await this.exitWithin(this.timing.termGraceMs))) this.signal("SIGKILL");
      }
    }
    return this.waitForExit();
  }
}

/** Where `bin` runs from: itself when it is an absolute path, else the first executable of that name on `PATH`. */
function onPath(bin: string, PATH = ""): string | undefined {
  if (bin.includes("/")) return path.isAbsolute(bin) && executable(bin) ? bin : undefined;
  return PATH.split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, bin))
    .find(executable);
}

function executable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Lowers what nice(1) could not: its niceness without nice(1), and the autogroup of the session it leads. */
function lowerPriority(pid: number, niced: boolean): void {
  if (!niced) ignoringFailure(() => os.setPriority(pid, SESSION_NICENESS));
  ignoringFailure(() => fs.writeFileSync(`/proc/${pid}/autogroup`, String(SESSION_NICENESS)));
}

function ignoringFailure(set: () => void): void {
  try {
    set();
  } catch {
    // Gone already (its exit is reported), a kernel without autogroups, or a platform without priorities: it runs at the hub's.
  }
}
