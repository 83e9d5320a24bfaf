import type { Command } from "commander";
import type { ContractStatus } from "../../../lib/api/contracts.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption } from "../options.ts";

type Opts = { status?: ContractStatus; assignee?: string; assigner?: string; limit?: string; cursor?: string };

export function register(program: Command) {
  program
    .command("contract-list")
    .description("list contracts")
    .option("--status <status>", "pending | ready | in_progress | completed | failed")
    .option("--assignee <name>")
    .option("--assigner <name>")
    .option("--limit <n>")
    .option("--cursor <n>")
    .action(
      action(
        ({ hub, opts }: Ctx<Opts>) =>
          hub.contracts.list({
            status: opts.status,
            assignee: opts.assignee,
            assigner: opts.assigner,
            limit: intOption("--limit", opts.limit),
            cursor: intOption("--cursor", opts.cursor),
          }),
        (r) => table(r.items, ["id", "status", "assignee", "priority", "title"]) + (r.nextCursor ? `\n(more: --cursor ${r.nextCursor})` : ""),
      ),
    );
}
