import type { Command } from "commander";
import type { ContractView } from "../../../lib/api/contracts.ts";
import { action, type Ctx } from "../action.ts";
import { json } from "../format.ts";

export function describe(c: ContractView): string {
  const deps = c.dependencies.map((d) => (d.type === "contract" ? d.contractId : `${d.artifactId}${d.minVersion ? `@v${d.minVersion}` : ""} (artifact)`));
  return [
    `${c.id}: ${c.title}`,
    `status     ${c.status}${c.statusReason ? ` (${c.statusReason})` : ""}`,
    `assignee   ${c.assignee} (assigned by ${c.assigner}), priority ${c.priority}, retries ${c.retryCount}/${c.maxRetries}`,
    deps.length ? `depends on ${deps.join(", ")}` : null,
    c.expectedOutputs.length
      ? `outputs    ${c.expectedOutputs.map((o) => `${o.artifactType}${o.artifactId ? `:${o.artifactId}` : ""}${o.required ? "" : "?"}`).join(", ")}`
      : null,
    c.acceptanceCriteria.length ? `criteria   ${c.acceptanceCriteria.map((k) => k.type).join(", ")}` : null,
    c.deadlineAt ? `deadline   ${c.deadlineAt.toISOString()}` : null,
    c.outputs?.length ? `produced   ${c.outputs.map((o) => `${o.artifactId}@v${o.version}`).join(", ")}` : null,
    Object.keys(c.inputs).length ? `inputs     ${json(c.inputs)}` : null,
  ]
    .filter(Boolean)
    .join("\n");
}

export function register(program: Command) {
  program
    .command("contract-get <id>")
    .description("show a contract")
    .action(action(({ hub, args }: Ctx<object>) => hub.contracts.get({ id: args[0] }), describe));
}
