import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";

export function register(program: Command) {
  program
    .command("artifact-readers <id>")
    .description("who read which versions of an artifact")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.artifacts.readers({ id: args[0] }),
        (r) =>
          table(
            r.readers.map((x) => ({ ...x, lastVersion: `v${x.lastVersion}`, lastAt: x.lastAt.toISOString() })),
            ["reader", "reads", "lastVersion", "lastAt"],
          ),
      ),
    );
}
