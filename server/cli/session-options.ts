/** Options shared by the commands that start sessions (spawn, team-spawn, delegate). */
import path from "node:path";
import type { Command } from "commander";
import { PRESETS, type SessionView } from "../../lib/api/sessions.ts";
import { ISOLATIONS } from "../../lib/api/worktrees.ts";
import { badOption, choiceOption, collect, intOption, numberOption } from "./options.ts";

export type SpawnOpts = {
  name?: string;
  prompt?: string;
  runtime?: string;
  model?: string;
  workDir?: string;
  preset?: string;
  allowedTools?: string[];
  systemPrompt?: string;
  agent?: string;
  maxBudget?: string;
  maxTurns?: string;
  maxCost?: string;
  timeoutMs?: string;
  safety?: boolean;
  protectedPath?: string[];
  approvalTimeoutMs?: string;
  isolation?: string;
  base?: string;
};

/** What delegate takes too. */
export function sessionOptions(cmd: Command): Command {
  return cmd
    .option("--name <name>", "session name (instead of the argument)")
    .option("--runtime <name>", "the agent it runs: claude (default) or codex (teamhub runtimes lists them)")
    .option("--model <model>", "sonnet, opus, haiku or a model id; for codex, one of the models teamhub runtimes lists")
    .option("--work-dir <dir>", "working directory (default: the current one)")
    .option("--preset <preset>", "read-only | review | edit | full | plan (default edit)")
    .option("--system-prompt <text>", "appended to the system prompt")
    .option("--agent <name>", "a Claude Code agent to run as")
    .option("--max-turns <n>", "safety limit on model turns (default 50)")
    .option("--max-cost <usd>", "safety limit on cost (default 2.00)")
    .option("--timeout-ms <ms>", "safety limit per interaction (default 300000)")
    .option("--no-safety", "no cost, turn or time limits (protected paths stay denied)")
    .option("--isolation <how>", "worktree (a git work tree and branch of its own) | shared (default: the team's setting)")
    .option("--base <branch>", "the branch its work tree starts from and merges into (default: the one checked out)");
}

export function spawnOptions(cmd: Command): Command {
  return sessionOptions(cmd)
    .option("--allowed-tools <rule>", "a tool rule allowed without asking, e.g. 'Bash(npm test:*)' (repeatable)", collect)
    .option("--max-budget <usd>", "budget passed to the CLI")
    .option("--protected-path <pattern>", "another path the session may not touch (repeatable)", collect)
    .option("--approval-timeout-ms <ms>", "how long a permission request waits for a person");
}

/** The name from the argument or from --name (docs/cli.md#options-and-exit-codes); exactly one is needed. */
export function nameOf(arg: string | undefined, option: string | undefined, what = "session name"): string {
  if (arg && option && arg !== option) throw badOption("--name", `give the ${what} once (argument '${arg}', --name '${option}')`);
  const name = arg ?? option;
  if (!name) throw badOption("--name", `a ${what} is required`);
  return name;
}

/** Sessions started from the CLI work where the command was run, unless told otherwise. */
export const workDirOf = (opts: { workDir?: string }) => path.resolve(opts.workDir ?? ".");

export function spawnBody(opts: SpawnOpts) {
  const safety = {
    ...(opts.safety === false ? { enabled: false } : {}),
    ...(opts.maxCost !== undefined ? { maxCostUsd: numberOption("--max-cost", opts.maxCost) } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: intOption("--timeout-ms", opts.timeoutMs) } : {}),
    ...(opts.protectedPath?.length ? { protectedPaths: opts.protectedPath } : {}),
  };
  return {
    runtime: opts.runtime,
    model: opts.model,
    workDir: workDirOf(opts),
    preset: choiceOption("--preset", PRESETS, opts.preset),
    allowedTools: opts.allowedTools,
    systemPrompt: opts.systemPrompt,
    agent: opts.agent,
    maxBudgetUsd: numberOption("--max-budget", opts.maxBudget),
    maxTurns: intOption("--max-turns", opts.maxTurns),
    safety: Object.keys(safety).length ? safety : undefined,
    approvalTimeoutMs: intOption("--approval-timeout-ms", opts.approvalTimeoutMs),
    ...isolationBody(opts),
  };
}

/** `--isolation` and `--base` (docs/worktrees.md). */
export const isolationBody = (opts: Pick<SpawnOpts, "isolation" | "base">) => ({
  isolation: choiceOption("--isolation", ISOLATIONS, opts.isolation),
  base: opts.base,
});

/** One line per session; what is wrong with it ("cost limit: $0.40 spent of $0.05") ends the line. */
export const sessionLine = (
  s: Pick<SessionView, "name" | "status" | "queuePosition" | "runtime" | "model" | "costUsd" | "turns" | "queued" | "pendingApprovals" | "problem">,
) =>
  `${s.name}: ${s.status}${s.queuePosition ? ` (#${s.queuePosition})` : ""} (${[s.runtime, s.model].filter(Boolean).join(" ")}), $${s.costUsd.toFixed(4)}, ${s.turns} turns` +
  `${s.queued ? `, ${s.queued} queued` : ""}${s.pendingApprovals ? `, ${s.pendingApprovals} waiting for approval` : ""}${s.problem ? ` — ${s.problem}` : ""}`;
