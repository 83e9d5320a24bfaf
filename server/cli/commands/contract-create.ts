import type { Command } from "commander";
import { CreateContractInput, type Dependency, type Priority } from "../../../lib/api/contracts.ts";
import { action, type Ctx } from "../action.ts";
import { effects } from "../format.ts";
import { badOption, checkedOption, collect, intOption, jsonFromInlineOrFile, jsonOption } from "../options.ts";

type Opts = {
  assignee: string;
  title: string;
  description?: string;
  dependsOn?: string[];
  needsArtifact?: string[];
  expectedOutput?: string[];
  criteria?: string;
  criteriaFile?: string;
  inputs?: string;
  context?: string;
  priority?: Priority;
  timeoutMs?: string;
  maxRetries?: string;
};

/** `schema@v2` → artifact dependency on schema at version ≥ 2. */
function artifactDependency(ref: string): Dependency {
  const m = /^([^@]+)(?:@v(\d+))?$/.exec(ref);
  if (!m) throw badOption("--needs-artifact", `'${ref}' must be id or id@vN`);
  return { type: "artifact", artifactId: m[1], ...(m[2] ? { minVersion: Number(m[2]) } : {}) };
}

/** `type`, `type:artifact-id`, and a trailing `?` for an optional output. */
function expectedOutput(spec: string) {
  const optional = spec.endsWith("?");
  const [artifactType, artifactId] = (optional ? spec.slice(0, -1) : spec).split(":");
  return { artifactType, ...(artifactId ? { artifactId } : {}), required: !optional };
}

export function register(program: Command) {
  program
    .command("contract-create <id>")
    .description("assign work to a member; it resolves itself as its inputs arrive")
    .requiredOption("--assignee <name>", "the member who does the work")
    .requiredOption("--title <text>")
    .option("--description <text>")
    .option("--depends-on <contract>", "a contract that must complete first (repeatable)", collect)
    .option("--needs-artifact <id[@vN]>", "an artifact that must exist (at version ≥ N) first (repeatable)", collect)
    .option("--expected-output <type[:id][?]>", "an artifact the work must publish; ? marks it optional (repeatable)", collect)
    .option("--criteria <json>", "acceptance criteria as a JSON array")
    .option("--criteria-file <path>", "acceptance criteria from a JSON file")
    .option("--inputs <json>", "inputs as a JSON object")
    .option("--context <text>", "shorthand for inputs.context")
    .option("--priority <p>", "low | normal | high | critical")
    .option("--timeout-ms <ms>", "fail with reason timeout when not completed in time")
    .option("--max-retries <n>", "how often it may be reopened (default 3)")
    .action(
      action(
        ({ hub, opts, args }: Ctx<Opts>) => {
          const inputs = checkedOption("--inputs", CreateContractInput.shape.inputs, jsonOption("--inputs", opts.inputs));
          if (opts.context !== undefined) inputs.context = opts.context;
          return hub.contracts.create({
            id: args[0],
            title: opts.title,
            description: opts.description,
            assignee: opts.assignee,
            inputs,
            dependencies: [
              ...(opts.dependsOn ?? []).map((contractId): Dependency => ({ type: "contract", contractId })),
              ...(opts.needsArtifact ?? []).map(artifactDependency),
            ],
            expectedOutputs: (opts.expectedOutput ?? []).map(expectedOutput),
            acceptanceCriteria: checkedOption(
              opts.criteriaFile === undefined ? "--criteria" : "--criteria-file",
              CreateContractInput.shape.acceptanceCriteria,
              jsonFromInlineOrFile(opts.criteria, opts.criteriaFile, "criteria"),
            ),
            priority: opts.priority,
            timeoutMs: intOption("--timeout-ms", opts.timeoutMs),
            maxRetries: intOption("--max-retries", opts.maxRetries),
          });
        },
        (c) => `created ${c.id} for ${c.assignee}: ${c.status}${effects(c.effects.filter((e) => e.contractId !== c.id))}`,
      ),
    );
}
