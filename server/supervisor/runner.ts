/**
 * One supervised session while its process runs: sends queued turns, records every stream event,
 * answers permission requests through the policy (or a person), accounts cost and turns per
 * interaction, enforces the safety net, and records why the process ended.
 *
 * What the agent says is handled strictly in order (one promise chain), and the agent is answered
 * only after the corresponding write has committed. What differs per agent is behind agent.ts.
 */
import fs from "node:fs";
import path from "node:path";
import type { ClaudeConfig } from "../env.ts";
import type { Runtimes } from "../runtimes.ts";
import type { DomainDeps } from "../domain/deps.ts";
import { issueSessionToken } from "../domain/auth/tokens.service.ts";
import {
  appendTranscript,
  cancelApproval,
  expireApproval,
  finishTurn,
  markLaunched,
  recordExit,
  recordInit,
  requestApproval,
  startNextTurn,
  violation,
  type ExitRecord,
  type TurnResult,
} from "../domain/sessions/runtime.ts";
import { timeLimitProblem, type LimitKind } from "../domain/sessions/problems.ts";
import { safetyOf, sessionByPk } from "../domain/sessions/sessions.repo.ts";
import { Preset, type StoredSafety } from "../../lib/api/sessions.ts";
import type { Exit, Timing } from "./child-process.ts";
import type { LaunchMode } from "./launch.ts";
import { decide, type Policy } from "./policy.ts";
import { sandboxCommand, STATUS_FD } from "./sandbox.ts";
import { stringsOf, type InteractionRow, type WorktreeRow } from "../db/rows.ts";
import { worktreeOfSession } from "../domain/worktrees/worktrees.repo.ts";
import { includedOfRow } from "../domain/worktrees/runnable.service.ts";
import { portEnv, portsOf } from "../domain/worktrees/ports.ts";
import type { CommandOwner, WorktreeCommands } from "./worktree-commands.ts";
import type { PermissionAnswer } from "./protocol.ts";
import { TurnClock } from "./turn-clock.ts";
import type { Account } from "./account.ts";
import { limitTurn, noteWarning, retryTurn, type LimitInfo } from "../domain/accounts/limits.ts";
import { SUPERVISOR } from "../domain/principal.ts";
import { UsageMeter, countedTokens, maxTokens } from "./usage-meter.ts";
import { NotBefore } from "./not-before.ts";
import { interruptedSentence, leftOf, type UsedUp } from "../domain/budgets/charge.ts";
import type { TranscriptFeed, TranscriptOwner } from "./transcript-feed.ts";
import type { AgentEvent, AgentHandlers, AgentLaunch, AgentProcess, Launched, LimitReport, PermissionAsk, TranscriptLine, TurnEnd } from "./agent.ts";
import { launchClaude } from "./claude-agent.ts";
import { launchCodex } from "./acp/codex-agent.ts";

export type RunnerContext = {
  deps: DomainDeps;
  claude: ClaudeConfig;
  runtimes: Runtimes;
  hubUrl: string;
  dataDir: string;
  feed: TranscriptFeed;
  hubReadTools: ReadonlySet<string>;
  timing: Timing;
  /** bubblewrap and the paths it must hide (the hub's data dir and database); null: sessions run unsandboxed. */
  sandbox: SandboxConfig | null;
  /** Work trees' setup and run commands (docs/worktrees.md#runnable-work-trees). */
  commands: WorktreeCommands;
};

export type SandboxConfig = { bwrap: string; hidden: string[] };

// However long retry-after asks for, the hub sends a refused turn again within this.
const RETRY_CAP_MS = 5 * 60_000;

/**
 * `clock`: the per-turn time limit, standing still while a person decides (null without a safety net).
 * `budgets`/`meter`: per unit, the budget with the least left when the turn started, and what the turn has streamed so far (docs/budgets.md).
 */
type Turn = {
  interaction: InteractionRow;
  /** The API said the account's window is used up during this turn (a `rate_limit_event` with status rejected). */
  limitHit?: LimitInfo;
  /** The delay the CLI last announced for a retry of its own (`system/api_retry`: the API's retry-after). */
  retryAfterMs?: number;
  startedAt: number;
  texts: string[];
  tools: string[];
  clock: TurnClock | null;
  limit?: LimitKind;
  budgets: UsedUp[];
  meter: UsageMeter;
  budgetStop?: string;
};
/** `clock`: the turn's clock this request holds still until it is settled. */
type PendingAsk = { approvalId: number; input: Record<string, unknown>; timer: NodeJS.Timeout; clock: TurnClock | null };

/** Why we are ending the process, which decides the state it ends in; `problem` says which limit, in words. */
type Ending = { status: ExitRecord["status"]; reason: string; problem?: string | null };

/** Where a session's private files live: by primary key, never by name (docs/domain.md#names). */
export const sessionDir = (dataDir: string, pk: number) => path.join(dataDir, "sessions", String(pk));

/** The data dir holding a session dir made by another hub (`<data dir>/sessions/<pk>`): protected like this hub's own. */
function dataDirOf(dir: string, own: string): string[] {
  const root = path.dirname(path.dirname(dir));
  return root === own ? [] : [`${root}/`];
}

export class SessionRunner {
  private agent: AgentProcess | null = null;
  private turn: Turn | null = null;
  private readonly asks = new Map<string, PendingAsk>();
  private ending: Ending | null = null;
  private chain: Promise<void> = Promise.resolve();
  private pumping = false;
  private safety!: StoredSafety;
  private policy!: Policy;
  private owner!: TranscriptOwner;
  private dir!: string;
  /** Its own work tree, when it has one (docs/worktrees.md). */
  private tree: WorktreeRow | null = null;
  private settingUp = false;
  /** The credentials its process runs on (docs/limits.md#accounts). */
  private account: Account | null = null;
  /** Attempts at turns the API refused (429/529), by interaction; and when the next one may be sent. */
  private readonly retries = new Map<number, number>();
  /** Wakes the queue when a retry's delay or a held session's place in a release has come. */
  private readonly notBefore = new NotBefore(() => void this.pump());
  private readonly exited: Promise<void>;
  private markExited!: () => void;

  constructor(
    private readonly ctx: RunnerContext,
    readonly pk: number,
    readonly name: string,
    readonly team: string,
    private readonly onGone: (runner: SessionRunner) => void,
  ) {
    this.exited = new Promise((r) => (this.markExited = r));
  }

  get pid(): number | undefined {
    return this.agent?.pid;
  }

  /** Starts the process; failures end up as a `failed` session with the reason, never as a throw. */
  async launch(mode: LaunchMode): Promise<void> {
    const s = await this.ctx.deps.db.read((sql) => sessionByPk(sql, this.pk));
    if (!s) return this.gone();
    this.owner = { name: s.name, principal: s.principal, spawnedBy: s.spawnedBy };
    // Where the hub that first launched it put its files: a hub resuming a session of a lost one reads them there (docs/hubs.md).
    this.dir = s.dir ?? sessionDir(this.ctx.dataDir, s.pk);
    // A work tree of its own (docs/worktrees.md#the-sandbox): all of it is the session's, wherever in it the work dir is.
    const { tree, ports } = await this.ctx.deps.db.read(async (sql) => {
      const tree = (await worktreeOfSession(sql, this.pk)) ?? null;
      return { tree, ports: tree ? await portsOf(sql, tree.id) : [] };
    });
    this.tree = tree?.path ? tree : null;
    const ownTree = this.tree?.path ?? undefined;
    // The gitignored files copied in are the owner's consent to their being read there: as written and where they really are.
    const readable = ownTree ? includedOfRow(this.tree!).flatMap((rel) => [path.join(ownTree, rel), path.join(fs.realpathSync(ownTree), rel)]) : [];
    this.safety = safetyOf(s);
    this.policy = {
      preset: Preset.parse(s.preset),
      allowedTools: stringsOf(s.allowedTools),
      // The hub's data dir (tokens, database, other sessions' files) is never a session's business.
      protectedPaths: [...this.safety.protectedPaths, `${this.ctx.dataDir}/`, ...dataDirOf(this.dir, this.ctx.dataDir)],
      workDir: s.workDir,
      ownTree,
      readable: new Set(readable),
      hubReadTools: this.ctx.hubReadTools,
    };
    // Setup first (docs/worktrees.md#setup): no turn reaches the model until the work tree is ready.
    if (this.tree && !(await this.setUp(this.tree))) return this.gone();
    const sandbox = this.ctx.sandbox;
    const launch: AgentLaunch = {
      session: s,
      safety: this.safety,
      mode,
      dir: this.dir,
      portEnv: portEnv(ports),
      token: await issueSessionToken(this.ctx.deps, { name: s.principal ?? s.name, kind: s.kind === "member" ? "member" : "agent" }),
      hubUrl: this.ctx.hubUrl,
      timing: this.ctx.timing,
      sandboxed: async ({ bin, args, env, hidden, mcpConfigFile }) =>
        sandbox
          ? {
              ...(await sandboxCommand({
                ...sandbox,
                hidden: [...sandbox.hidden, ...hidden],
                bin,
                args,
                env,
                mcpConfigFile,
                workDir: s.workDir,
                ownTree,
                protectedPaths: this.safety.protectedPaths,
                readable,
              })),
              statusFd: STATUS_FD,
            }
          : { bin, args, cwd: s.workDir },
    };
    const handlers: AgentHandlers = {
      receive: (lines, events) => this.enqueue(() => this.receive(lines, events)),
      streaming: (text) => this.ctx.feed.publish({ session: this.name, team: this.team, owner: this.owner, textDelta: text }),
      exited: (exit) => void this.enqueue(() => this.handleExit(exit)),
    };
    let launched: Launched;
    try {
      launched = s.runtime === "codex" ? await launchCodex(this.ctx.runtimes, launch, handlers) : await launchClaude(this.ctx.claude, launch, handlers);
    } catch (e) {
      await recordExit(this.ctx.deps, this.pk, {
        status: "failed",
        reason: "spawn_failed",
        code: null,
        signal: null,
        error: (e as Error).message,
        stderrTail: "",
      });
      return this.gone();
    }
    this.agent = launched.process;
    this.account = launched.account;
    if (this.agent.pid === undefined) return; // spawn failed; its exit reports it
    await markLaunched(this.ctx.deps, this.pk, {
      pid: this.agent.pid,
      mode: mode.kind,
      args: redact(launched.args),
      sandbox: sandbox ? "bubblewrap" : "none",
      dir: this.dir,
      account: this.account?.account,
    });
    await this.pump();
  }

  private commandOwner(): CommandOwner {
    return { name: this.name, team: this.team, owner: this.owner, protectedPaths: this.safety.protectedPaths };
  }

  /**
   * Runs the work tree's setup if it has not succeeded yet. A setup that failed before stays failed until a person asks
   * for it again (`worktree.setup_requested` makes it pending); false when the session must end instead of starting.
   */
  private async setUp(tree: WorktreeRow): Promise<boolean> {
    if (tree.setupStatus === null || tree.setupStatus === "succeeded") return true;
    let error = tree.setupStatus === "failed" ? tree.setupError : null;
    if (!error) {
      this.settingUp = true;
      error = await this.ctx.commands.setup(tree, this.commandOwner()).finally(() => (this.settingUp = false));
    }
    if (!this.ending && !error) return true;
    const ending: Ending = this.ending ?? { status: "failed", reason: "setup_failed", problem: error };
    await recordExit(this.ctx.deps, this.pk, {
      status: ending.status,
      reason: ending.reason,
      problem: ending.problem,
      code: null,
      signal: null,
      error: ending.status === "failed" ? error : null,
      stderrTail: "",
    });
    return false;
  }

  /** The repository's run command in its work tree (docs/worktrees.md#run); it stops when the session's process ends. */
  async startRun(): Promise<void> {
    const tree = await this.ctx.deps.db.read((sql) => worktreeOfSession(sql, this.pk));
    if (tree?.path && this.agent?.alive) await this.ctx.commands.startRun(tree, this.commandOwner());
  }

  private enqueue(fn: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(fn).catch((e) => console.error(`[teamhub] session ${this.name}:`, e));
    return this.chain;
  }

  /** No turn starts before `at` (a time from Date.now()); then the queue is looked at again. */
  startNoTurnBefore(at: number): void {
    this.notBefore.delay(at);
  }

  /** Sends the oldest queued message if the session is free. */
  async pump(): Promise<void> {
    if (this.pumping || this.turn || this.ending || !this.agent?.alive || !this.notBefore.open) return;
    this.pumping = true;
    try {
      const next = await startNextTurn(this.ctx.deps, this.pk);
      if (!next) return;
      const clock = this.safety.enabled ? new TurnClock(this.safety.timeoutMs, () => this.timeOut()) : null;
      this.turn = { interaction: next, startedAt: Date.now(), texts: [], tools: [], clock, budgets: next.budgets, meter: new UsageMeter() };
      await this.agent.send(next.prompt, (line) => this.record(line));
    } finally {
      this.pumping = false;
    }
  }

  private async record(line: TranscriptLine): Promise<void> {
    const entry = await appendTranscript(this.ctx.deps, this.pk, { interactionId: this.turn?.interaction.id ?? null, ...line });
    if (entry) this.ctx.feed.publish({ session: this.name, team: this.team, owner: this.owner, entry });
  }

  /** What the agent said: its lines stored first, then acted on, in order. */
  private async receive(lines: TranscriptLine[], events: AgentEvent[]): Promise<void> {
    for (const line of lines) await this.record(line);
    for (const e of events) await this.act(e);
  }

  private async act(e: AgentEvent): Promise<void> {
    switch (e.kind) {
      case "started":
        return recordInit(this.ctx.deps, this.pk, { claudeSessionId: e.conversationId, model: e.model });
      case "said":
        this.turn?.texts.push(e.text);
        return;
      case "used":
        this.turn?.tools.push(e.tool);
        return;
      case "streamed":
        return this.meter(e.event);
      case "permission":
        return this.permission(e.ask);
      case "withdrawn": {
        const ask = this.settle(e.requestId);
        if (!ask) return;
        return cancelApproval(this.ctx.deps, ask.approvalId, "the agent withdrew the request");
      }
      case "limit":
        return this.noteLimit(e.report);
      case "retry_after":
        if (this.turn) this.turn.retryAfterMs = e.ms;
        return;
      case "ended":
        return this.finish(e.end);
    }
  }

  /**
   * Prices and counts the turn's calls as they stream; once what it has spent (dollars) or used
   * (tokens) reaches what its tightest budget of that unit had left, the turn is interrupted (the
   * process stays), so a budget is overshot by at most the call that crossed it.
   */
  private meter(event: object): void {
    const turn = this.turn;
    if (!turn?.budgets.length || turn.budgetStop) return;
    turn.meter.observe(event);
    for (const u of turn.budgets) {
      const streamed = u.budget.unit === "tokens" ? countedTokens(turn.meter.tokens) : turn.meter.spentUsd;
      if (streamed < leftOf(u)) continue;
      turn.budgetStop = interruptedSentence(u, streamed);
      void this.agent?.interrupt();
      return;
    }
  }

  private async permission({ requestId, tool, input }: PermissionAsk): Promise<void> {
    const d = decide(this.policy, tool, input);
    if (d.behavior === "ask") {
      // From here until it is settled the turn waits for a person, not for the model.
      const clock = this.turn?.clock ?? null;
      clock?.hold();
      const approval = await requestApproval(this.ctx.deps, this.pk, { requestId, toolName: tool, input, reason: d.reason });
      if (!approval) {
        clock?.release();
        return;
      }
      const timer = setTimeout(() => void this.expire(requestId), Math.max(0, approval.expiresAt.getTime() - Date.now()));
      timer.unref();
      this.asks.set(requestId, { approvalId: approval.id, input, timer, clock });
      return;
    }
    if (d.behavior === "deny" && d.protectedPath) {
      await violation(this.ctx.deps, this.pk, "protected_path", `${tool} denied: ${d.reason}`);
    }
    await this.answer(requestId, d.behavior === "allow" ? { behavior: "allow", updatedInput: input } : { behavior: "deny", message: `Team Hub: ${d.reason}` });
  }

  private async answer(requestId: string, answer: PermissionAnswer): Promise<void> {
    await this.agent?.answer(requestId, answer, (line) => this.record(line));
  }

  /** A pending request is settled: it no longer waits, and the turn's clock runs again when none does. */
  private settle(requestId: string): PendingAsk | undefined {
    const ask = this.asks.get(requestId);
    if (!ask) return undefined;
    clearTimeout(ask.timer);
    this.asks.delete(requestId);
    ask.clock?.release();
    return ask;
  }

  /** A person allowed a call for the rest of the session (docs/sessions.md#allow-for-this-session): the rule is the session's now. */
  allowRule(rule: string): void {
    if (this.policy && !this.policy.allowedTools.includes(rule)) this.policy.allowedTools.push(rule);
  }

  /** A person decided (the decision has committed). */
  answerApproval(approvalId: number, allowed: boolean, note: string | null, by: string): void {
    const requestId = [...this.asks.entries()].find(([, a]) => a.approvalId === approvalId)?.[0];
    if (requestId === undefined) return;
    const ask = this.settle(requestId)!;
    this.enqueue(() =>
      this.answer(
        requestId,
        allowed ? { behavior: "allow", updatedInput: ask.input } : { behavior: "deny", message: `Denied by ${by}${note ? `: ${note}` : ""}` },
      ),
    );
  }

  private async expire(requestId: string): Promise<void> {
    const ask = this.asks.get(requestId);
    if (!ask) return;
    const settled = await expireApproval(this.ctx.deps, ask.approvalId);
    // A person's decision that committed first is answered through answerApproval instead.
    if (!settled) return;
    this.settle(requestId);
    this.enqueue(() => this.answer(requestId, { behavior: "deny", message: "Team Hub: nobody approved this in time, so it is denied" }));
  }

  /** What the agent says of the account's usage window (docs/limits.md). */
  private noteLimit(report: LimitReport): void {
    if (!this.account) return;
    const limit: LimitInfo = { window: report.window, resetsAt: report.resetsAt, utilization: report.utilization };
    if (report.status === "rejected" && this.turn) this.turn.limitHit = limit;
    else if (report.status === "allowed_warning") {
      void noteWarning(this.ctx.deps, this.account, limit, SUPERVISOR.name).catch((e) =>
        console.error(`[teamhub] session ${this.name}: recording a usage warning:`, e),
      );
    }
  }

  /**
   * A turn the API refused: a used-up usage window holds the account (the turn waits for the reset); a rate limit or
   * overload the CLI gave up on is sent again after a backoff, a bounded number of times. True when it was taken care of.
   */
  private async refused(turn: Turn, end: TurnEnd): Promise<boolean> {
    const status = end.apiErrorStatus;
    const id = turn.interaction.id;
    if (this.account && (turn.limitHit || (status === 429 && /hit your .*limit/i.test(end.result ?? "")))) {
      const info = turn.limitHit ?? { window: null, resetsAt: null };
      await limitTurn(this.ctx.deps, this.pk, id, this.account, { ...info, message: end.result }, SUPERVISOR.name);
      return true;
    }
    if (!end.isError || (status !== 429 && status !== 529) || turn.budgetStop || turn.limit) return false;
    const { retries, retryBaseMs } = this.ctx.claude.limits;
    const attempt = (this.retries.get(id) ?? 0) + 1;
    if (attempt > retries) return false;
    this.retries.set(id, attempt);
    const delayMs = Math.min(RETRY_CAP_MS, Math.max(turn.retryAfterMs ?? 0, retryBaseMs * 2 ** (attempt - 1)));
    await retryTurn(this.ctx.deps, this.pk, id, { attempt, maxAttempts: retries, delayMs, status }, SUPERVISOR.name);
    this.startNoTurnBefore(Date.now() + delayMs);
    return true;
  }

  private async finish(end: TurnEnd): Promise<void> {
    const turn = this.turn;
    if (!turn) return;
    turn.clock?.stop();
    this.turn = null;
    if (await this.refused(turn, end)) return;
    this.retries.delete(turn.interaction.id);
    // What the model wrote: a failed turn's `result` is the agent's error message, not a reply.
    const said = turn.texts.join("\n") || null;
    const result: TurnResult = {
      interactionId: turn.interaction.id,
      status: end.status,
      error: end.error,
      isError: end.isError,
      subtype: end.subtype,
      response: end.status === "completed" ? (end.result ?? said) : said,
      // An interrupted call may be reported as free (2.1.197 does): what streamed was paid for all the same.
      costDelta: Math.max(end.costUsd, turn.budgetStop ? turn.meter.spentUsd : 0),
      // Likewise its tokens: the agent's count, or what streamed when that is more.
      tokens: turn.budgetStop ? maxTokens(end.tokens, turn.meter.tokens) : end.tokens,
      turns: end.turns,
      durationMs: end.durationMs ?? Date.now() - turn.startedAt,
      toolsUsed: [...new Set(turn.tools)],
      permissionDenials: end.permissionDenials,
      empty: end.status === "completed" && turn.texts.length === 0 && turn.tools.length === 0 && !(end.result ?? "").trim(),
      limit: turn.limit,
      budgetStop: turn.budgetStop,
    };
    const { limit, problem } = await finishTurn(this.ctx.deps, this.pk, result);
    if (limit) {
      this.ending ??= { status: "stopped", reason: `limit:${limit}`, problem };
      void this.agent?.stop();
      return;
    }
    if (this.ending) return;
    await this.pump();
  }

  /** The per-interaction time limit: interrupt, record it with the turn, then stop. */
  private timeOut(): void {
    if (!this.turn) return;
    this.turn.limit = "timeout";
    this.ending ??= { status: "stopped", reason: "limit:timeout", problem: timeLimitProblem(this.safety.timeoutMs) };
    void this.agent?.interrupt().then((ok) => {
      // If it does not answer the interrupt, it does not get to finish either.
      if (!ok) void this.agent?.kill();
      else void this.agent?.stop();
    });
  }

  /** Interrupts the running turn, leaving the process alive (used for stalled sessions). */
  async interrupt(): Promise<boolean> {
    return this.agent?.alive ? this.agent.interrupt() : false;
  }

  async stop(reason = "stopped"): Promise<void> {
    this.ending ??= { status: "stopped", reason };
    if (this.agent?.alive) await this.agent.stop();
    else if (this.settingUp && this.tree) await this.ctx.commands.cancelSetup(this.tree.id);
    await this.exited;
  }

  async kill(reason = "killed", status: ExitRecord["status"] = "killed"): Promise<void> {
    this.ending = { status, reason };
    if (this.agent?.alive) await this.agent.kill();
    else if (this.settingUp && this.tree) await this.ctx.commands.cancelSetup(this.tree.id);
    await this.exited;
  }

  private async handleExit(exit: Exit): Promise<void> {
    this.turn?.clock?.stop();
    this.turn = null;
    for (const ask of this.asks.values()) clearTimeout(ask.timer);
    this.asks.clear();
    const ending: Ending =
      exit.reason === "spawn_failed"
        ? { status: "failed", reason: "spawn_failed" }
        : (this.ending ?? (exit.code === 0 ? { status: "stopped", reason: "exited" } : { status: "failed", reason: "crashed" }));
    // A deleted session has no row left; recordExit then writes nothing.
    await recordExit(this.ctx.deps, this.pk, { ...ending, code: exit.code, signal: exit.signal, error: exit.error ?? null, stderrTail: exit.stderrTail });
    this.gone();
  }

  private gone(): void {
    this.notBefore.stop();
    // Its run command stops with it (docs/worktrees.md#run).
    if (this.tree) void this.ctx.commands.stopRun(this.tree.id).catch((e) => console.error(`[teamhub] stopping the run command of ${this.name}:`, e));
    this.markExited();
    this.onGone(this);
  }
}

/** Arguments as logged: the appended system prompt can be long and the settings are noise. */
function redact(args: string[]): string[] {
  return args.map((a, i) => (args[i - 1] === "--append-system-prompt" ? `(${a.length} characters)` : a));
}
