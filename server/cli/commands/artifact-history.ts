import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";

export function register(program: Command) {
  program
    .command("artifact-history <id>")
    .description("every version of an artifact")
    .option("--data", "include each version's data")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ data?: boolean }>) => hub.artifacts.history({ id: args[0], includeData: opts.data === true }),
        (r) =>
          `${r.artifact.id} (${r.artifact.type})\n` +
          table(
            r.versions.map((v) => ({
              version: `v${v.version}`,
              status: v.status,
              publisher: v.publisher,
              contract: v.contractId,
              derivedFrom: v.derivedFrom.join(","),
              at: v.createdAt.toISOString(),
              summary: v.summary,
            })),
            ["version", "status", "publisher", "contract", "derivedFrom", "at", "summary"],
          ),
      ),
    );
}
