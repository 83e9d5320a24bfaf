import type { Command } from "commander";
import { PRESETS, type DelegateResult, type FinishResult } from "../../../lib/api/sessions.ts";
import { action, type Ctx } from "../action.ts";
import { choiceOption, intOption, numberOption } from "../options.ts";
import { isolationBody, nameOf, sessionOptions, workDirOf, type SpawnOpts } from "../session-options.ts";

const outcome = (r: DelegateResult) =>
  `${r.status}${r.error ? ` (${r.error})` : ""}: ${r.response ?? "(no response)"}\n\n— ${r.name}: $${r.cost.toFixed(4)}, ${r.turns} turns, ${(r.duration / 1000).toFixed(1)}s` +
  `${r.toolsUsed.length ? `, tools ${r.toolsUsed.join(", ")}` : ""}${r.canContinue ? " (teamhub continue to follow up)" : ""}` +
  r.safety.violations.map((v) => `\n  violation: ${v.kind}: ${v.detail}`).join("");

const totals = (r: FinishResult) => `${r.name}: ${r.status}, $${r.cost.toFixed(4)}, ${r.turns} turns in ${r.interactions} interactions`;

export function register(program: Command) {
  sessionOptions(program.command("delegate [name]").description("run one task in a new session under the safety net and report the outcome"))
    .requiredOption("--task <text>", "what to do")
    .option("--context <text>", "background put before the task")
    .action(
      action(
        ({ hub, opts, args }: Ctx<SpawnOpts & { task: string; context?: string }>) =>
          hub.sessions.delegate({
            name: nameOf(args[0], opts.name),
            task: opts.task,
            context: opts.context,
            runtime: opts.runtime,
            model: opts.model,
            preset: choiceOption("--preset", PRESETS, opts.preset),
            workDir: workDirOf(opts),
            systemPrompt: opts.systemPrompt,
            agent: opts.agent,
            maxCost: numberOption("--max-cost", opts.maxCost),
            maxTurns: intOption("--max-turns", opts.maxTurns),
            timeout: intOption("--timeout-ms", opts.timeoutMs),
            safety: opts.safety,
            ...isolationBody(opts),
          }),
        outcome,
      ),
    );
  program
    .command("continue [name] [message]")
    .description("send a follow-up to a delegated session and report the outcome")
    .option("--name <name>")
    .option("--message <text>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string; message?: string }>) =>
          hub.sessions.continue({ name: nameOf(args[0], opts.name), message: nameOf(args[1], opts.message, "message") }),
        outcome,
      ),
    );
  for (const [op, description] of [
    ["finish", "accept a delegated task: stop its session gracefully"],
    ["abort", "kill a delegated task's session now"],
  ] as const) {
    program
      .command(`${op} [name]`)
      .description(description)
      .option("--name <name>")
      .action(action(({ hub, opts, args }: Ctx<{ name?: string }>) => hub.sessions[op]({ name: nameOf(args[0], opts.name) }), totals));
  }
}
