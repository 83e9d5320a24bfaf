/** pipeline-create, -list, -get, -pause, -resume, -delete and -dry-run. */
import type { Command } from "commander";
import type { DryRunResult, ExecutionView, PipelineView } from "../../domain/pipelines/pipelines.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { json, table } from "../format.ts";
import { badOption, intOption, jsonOrFile } from "../options.ts";

const counts = (p: PipelineView) =>
  Object.entries(p.executions)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none yet";
const summary = (p: PipelineView) => `${p.id} (${p.status}): ${p.rules.length} rule(s); executions: ${counts(p)}`;

/** A rules file may hold the array itself or `{rules: [...]}` as the seed's examples do. */
function rulesOf(value: unknown): unknown {
  if (Array.isArray(value)) return value;
  if (value && typeof value === "object" && "rules" in value) return (value as { rules: unknown }).rules;
  throw badOption("--rules", "must be a JSON array of rules, or an object with a rules array");
}

export function register(program: Command) {
  program
    .command("pipeline-create <id>")
    .description("create a reactive pipeline: rules {trigger, condition?, action, rateLimit?} from inline JSON or a file")
    .requiredOption("--rules <json|file>", "the rules: inline JSON, or a path to a JSON file (- for stdin)")
    .option("--paused", "create it paused")
    .action(
      action<{ rules: string; paused?: boolean }, PipelineView>(
        ({ target, team, opts, args }) =>
          call(target, "POST", "/pipelines", {
            query: { team },
            body: { id: args[0], rules: rulesOf(jsonOrFile("--rules", opts.rules)), status: opts.paused ? "paused" : "active" },
          }),
        (p) => `created pipeline ${summary(p)}`,
      ),
    );
  program
    .command("pipeline-list")
    .description("pipelines with their execution counts")
    .action(
      action<object, PipelineView[]>(
        ({ target, team }) => call(target, "GET", "/pipelines", { query: { team } }),
        (list) =>
          table(
            list.map((p) => ({ id: p.id, status: p.status, rules: p.rules.length, executions: counts(p) })),
            ["id", "status", "rules", "executions"],
          ),
      ),
    );
  program
    .command("pipeline-get <id>")
    .description("a pipeline's rules and its execution log, newest first")
    .option("--limit <n>", "log entries (≤ 500)")
    .action(
      action<{ limit?: string }, PipelineView & { log: ExecutionView[] }>(
        ({ target, team, opts, args }) =>
          call(target, "GET", `/pipelines/${encodeURIComponent(args[0])}`, { query: { team, limit: intOption("--limit", opts.limit) } }),
        (p) =>
          `${summary(p)}\n${p.rules.map((r, i) => `  [${i}] ${r.name ?? ""} ${r.trigger.type}${r.condition ? ` if ${r.condition}` : ""} → ${r.action.type}`).join("\n")}\n` +
          table(
            p.log.map((x) => ({ ...x, condition: x.conditionResult, at: new Date(x.at).toISOString(), ms: x.durationMs.toFixed(1), error: x.error ?? "" })),
            ["at", "rule", "eventId", "eventType", "condition", "outcome", "ms", "error"],
          ),
      ),
    );
  for (const [verb, method, path] of [
    ["pause", "POST", "/pause"],
    ["resume", "POST", "/resume"],
    ["delete", "DELETE", ""],
  ] as const) {
    program
      .command(`pipeline-${verb} <id>`)
      .description(`${verb} a pipeline`)
      .action(
        action<object, PipelineView | { deleted: string }>(
          ({ target, team, args }) => call(target, method, `/pipelines/${encodeURIComponent(args[0])}${path}`, { query: { team } }),
          (r) => ("deleted" in r ? `deleted pipeline ${r.deleted}` : summary(r)),
        ),
      );
  }
  program
    .command("pipeline-dry-run")
    .description("show what one rule would do for a sample event or a logged one; nothing is written")
    .requiredOption("--rule <json|file>", "the rule")
    .option("--event <json|file>", "a sample event {type, payload, data?}")
    .option("--event-id <n>", "an event from the log")
    .action(
      action<{ rule: string; event?: string; eventId?: string }, DryRunResult>(
        ({ target, team, opts }) =>
          call(target, "POST", "/pipelines/dry-run", {
            query: { team },
            body: { rule: jsonOrFile("--rule", opts.rule), event: jsonOrFile("--event", opts.event), eventId: intOption("--event-id", opts.eventId) },
          }),
        (r) =>
          !r.triggerMatched
            ? `the rule would not fire: ${r.reason}`
            : r.conditionError
              ? `the condition fails on this event: ${r.conditionError}`
              : r.action
                ? `would run${r.conditionResult === null ? "" : " (condition true)"}:\n${json(r.action)}`
                : r.actionError
                  ? `the action cannot be rendered: ${r.actionError}`
                  : "the condition is false: nothing would run",
      ),
    );
}
