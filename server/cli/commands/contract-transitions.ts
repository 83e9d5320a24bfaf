/** contract-start, -complete, -fail, -reopen and -reassign: one POST each to /api/contracts/<id>/<verb>. */
import type { Command } from "commander";
import type { ContractChange, StartResult } from "../../domain/contracts/contracts.service.ts";
import type { ContractView } from "../../domain/contracts/contracts.repo.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { effects, json } from "../format.ts";

const post = <R>(verb: string, body: (opts: Record<string, unknown>) => Record<string, unknown>) =>
  action<Record<string, unknown>, R>(
    ({ target, team, opts, args }) => call<R>(target, "POST", `/contracts/${encodeURIComponent(args[0])}/${verb}`, { query: { team }, body: body(opts) }),
    (r) => render(verb, r as ContractView | StartResult),
  );

function render(verb: string, r: ContractView | StartResult): string {
  if ("resolvedInputs" in r) {
    const inputs = r.resolvedInputs.map((i) => `\n--- ${i.artifactId}@v${i.version} (${i.type})\n${json(i.data)}`).join("");
    return `started ${r.contract.id}: ${r.contract.status}\ninputs: ${json(r.inputs)}${inputs}`;
  }
  const done = { complete: "completed", fail: "failed", reopen: "reopened", reassign: "reassigned" }[verb] ?? verb;
  return (
    `${done} ${r.id}: ${r.status}${r.statusReason ? ` (${r.statusReason})` : ""}${verb === "reassign" ? ` → ${r.assignee}` : ""}` +
    `${verb === "reopen" ? `, retry ${r.retryCount}/${r.maxRetries}` : ""}${effects((r as ContractChange).effects?.filter((e) => e.contractId !== r.id))}`
  );
}

export function register(program: Command) {
  program
    .command("contract-start <id>")
    .description("start work; prints the inputs and the resolved input artifacts")
    .action(post<StartResult>("start", () => ({})));
  program
    .command("contract-complete <id>")
    .description("complete; refused while acceptance criteria are unmet unless --force with --reason")
    .option("--summary <text>")
    .option("--force", "override unmet criteria (needs --reason)")
    .option("--reason <text>")
    .action(post<ContractChange>("complete", (o) => ({ summary: o.summary, force: o.force === true, reason: o.reason })));
  program
    .command("contract-fail <id>")
    .description("mark as failed")
    .requiredOption("--reason <text>")
    .action(post<ContractView>("fail", (o) => ({ reason: o.reason })));
  program
    .command("contract-reopen <id>")
    .description("reopen a completed or failed contract for another attempt (counts against maxRetries)")
    .option("--reason <text>")
    .action(post<ContractView>("reopen", (o) => ({ reason: o.reason })));
  program
    .command("contract-reassign <id>")
    .description("give the contract to another member")
    .requiredOption("--assignee <name>", "the new assignee")
    .action(post<ContractView>("reassign", (o) => ({ assignee: o.assignee })));
}
