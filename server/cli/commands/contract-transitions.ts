/** contract-start, -complete, -fail, -reopen and -reassign: one POST each to /api/contracts/<id>/<verb>. */
import type { Command } from "commander";
import type { ContractChange, ContractView, StartResult } from "../../../lib/api/contracts.ts";
import { action, type Ctx } from "../action.ts";
import { effects, json } from "../format.ts";

function started(r: StartResult): string {
  const inputs = r.resolvedInputs.map((i) => `\n--- ${i.artifactId}@v${i.version} (${i.type})\n${json(i.data)}`).join("");
  return `started ${r.contract.id}: ${r.contract.status}\ninputs: ${json(r.inputs)}${inputs}`;
}

/** `complete` also lists what it set off in other contracts. */
function changed(verb: "complete" | "fail" | "reopen" | "reassign") {
  const done = { complete: "completed", fail: "failed", reopen: "reopened", reassign: "reassigned" }[verb];
  return (r: ContractView | ContractChange) =>
    `${done} ${r.id}: ${r.status}${r.statusReason ? ` (${r.statusReason})` : ""}${verb === "reassign" ? ` → ${r.assignee}` : ""}` +
    `${verb === "reopen" ? `, retry ${r.retryCount}/${r.maxRetries}` : ""}${"effects" in r ? effects(r.effects.filter((e) => e.contractId !== r.id)) : ""}`;
}

export function register(program: Command) {
  program
    .command("contract-start <id>")
    .description("start work; prints the inputs and the resolved input artifacts")
    .action(action(({ hub, args }: Ctx<object>) => hub.contracts.start({ id: args[0] }), started));
  program
    .command("contract-complete <id>")
    .description("complete; refused while acceptance criteria are unmet unless --force with --reason")
    .option("--summary <text>")
    .option("--force", "override unmet criteria (needs --reason)")
    .option("--reason <text>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ summary?: string; force?: boolean; reason?: string }>) =>
          hub.contracts.complete({ id: args[0], summary: opts.summary, force: opts.force === true, reason: opts.reason }),
        changed("complete"),
      ),
    );
  program
    .command("contract-fail <id>")
    .description("mark as failed")
    .requiredOption("--reason <text>")
    .action(action(({ hub, opts, args }: Ctx<{ reason: string }>) => hub.contracts.fail({ id: args[0], reason: opts.reason }), changed("fail")));
  program
    .command("contract-reopen <id>")
    .description("reopen a completed or failed contract for another attempt (counts against maxRetries)")
    .option("--reason <text>")
    .action(action(({ hub, opts, args }: Ctx<{ reason?: string }>) => hub.contracts.reopen({ id: args[0], reason: opts.reason }), changed("reopen")));
  program
    .command("contract-reassign <id>")
    .description("give the contract to another member")
    .requiredOption("--assignee <name>", "the new assignee")
    .action(action(({ hub, opts, args }: Ctx<{ assignee: string }>) => hub.contracts.reassign({ id: args[0], assignee: opts.assignee }), changed("reassign")));
}
