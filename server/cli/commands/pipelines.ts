/** pipeline-create, -update, -list, -get, -pause, -resume, -delete and -dry-run. */
import type { Command } from "commander";
import { api } from "../../../lib/api/endpoints/index.ts";
import { asTyped } from "../../../lib/api/endpoint.ts";
import type { PipelineView } from "../../../lib/api/pipelines.ts";
import { action, type Ctx } from "../action.ts";
import { json, table } from "../format.ts";
import { badOption, intOption, jsonOrFile } from "../options.ts";

const counts = (p: PipelineView) =>
  Object.entries(p.executions)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ") || "none yet";
const summary = (p: PipelineView) => `${p.id} (${p.status}): ${p.rules.length} rule(s); executions: ${counts(p)}`;

/** A rules file may hold the array itself or `{rules: [...]}`, as a pipeline's JSON does. */
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
      action(
        ({ hub, opts, args }: Ctx<{ rules: string; paused?: boolean }>) =>
          hub.pipelines.create(
            asTyped(api.pipelines.create, { id: args[0], rules: rulesOf(jsonOrFile("--rules", opts.rules)), status: opts.paused ? "paused" : "active" }),
          ),
        (p) => `created pipeline ${summary(p)}`,
      ),
    );
  program
    .command("pipeline-update <id>")
    .description("replace a pipeline's rules (checked as on create); they act on events after the change only")
    .requiredOption("--rules <json|file>", "the new rules: inline JSON, or a path to a JSON file (- for stdin)")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ rules: string }>) =>
          hub.pipelines.update(asTyped(api.pipelines.update, { id: args[0], rules: rulesOf(jsonOrFile("--rules", opts.rules)) })),
        (p) => `updated pipeline ${summary(p)}`,
      ),
    );
  program
    .command("pipeline-list")
    .description("pipelines with their execution counts")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.pipelines.list(),
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
      action(
        ({ hub, opts, args }: Ctx<{ limit?: string }>) => hub.pipelines.get({ id: args[0], limit: intOption("--limit", opts.limit) }),
        (p) =>
          `${summary(p)}\n${p.rules.map((r, i) => `  [${i}] ${r.name ?? ""} ${r.trigger.type}${r.condition ? ` if ${r.condition}` : ""} → ${r.action.type}`).join("\n")}\n` +
          table(
            p.log.map((x) => ({ ...x, condition: x.conditionResult, at: x.at.toISOString(), ms: x.durationMs.toFixed(1), error: x.error ?? "" })),
            ["at", "rule", "eventId", "eventType", "condition", "outcome", "ms", "error"],
          ),
      ),
    );
  for (const verb of ["pause", "resume", "delete"] as const) {
    program
      .command(`pipeline-${verb} <id>`)
      .description(`${verb} a pipeline`)
      .action(
        action(
          ({ hub, args }: Ctx<object>): Promise<PipelineView | { deleted: string }> => hub.pipelines[verb]({ id: args[0] }),
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
      action(
        ({ hub, opts }: Ctx<{ rule: string; event?: string; eventId?: string }>) =>
          hub.pipelines.dryRun(
            asTyped(api.pipelines.dryRun, {
              rule: jsonOrFile("--rule", opts.rule),
              event: jsonOrFile("--event", opts.event),
              eventId: intOption("--event-id", opts.eventId),
            }),
          ),
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
