/** pattern-register, pattern-get and pattern-list: the project's conventions (docs/domain.md#continuity). */
import type { Command } from "commander";
import type { PatternView } from "../../../lib/api/continuity.ts";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption, repeatable } from "../options.ts";

const show = (p: PatternView) =>
  [`${p.name} (by ${p.author}, ${p.updatedAt.toISOString()})`, `  ${p.description}`, ...p.examples.map((e) => `  example: ${e}`)].join("\n");

export function register(program: Command) {
  program
    .command("pattern-register <name>")
    .description("register a project convention (re-registering a name replaces its text)")
    .requiredOption("--description <text>", "the convention")
    .option("--example <text>", "an example (repeatable)", repeatable)
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ description: string; example?: string[] }>) =>
          hub.continuity.registerPattern({ name: args[0], description: opts.description, examples: opts.example }),
        (p) => `${p.outcome} pattern ${show(p)}`,
      ),
    );
  program
    .command("pattern-get <name>")
    .description("one convention with its examples")
    .action(action(({ hub, args }: Ctx<object>) => hub.continuity.getPattern({ name: args[0] }), show));
  program
    .command("pattern-list")
    .description("the team's conventions by name")
    .option("--limit <n>", "page size (≤ 500)")
    .option("--cursor <name>", "continue after this name (nextCursor of the previous page)")
    .action(
      action(
        ({ hub, opts }: Ctx<{ limit?: string; cursor?: string }>) =>
          hub.continuity.listPatterns({ limit: intOption("--limit", opts.limit), cursor: opts.cursor }),
        (page) =>
          [
            table(
              page.items.map((p) => ({ ...p, examples: p.examples.length, updated: p.updatedAt.toISOString() })),
              ["name", "description", "examples", "author", "updated"],
            ),
            page.nextCursor === null ? "" : `more: --cursor ${page.nextCursor}`,
          ]
            .filter(Boolean)
            .join("\n"),
      ),
    );
}
