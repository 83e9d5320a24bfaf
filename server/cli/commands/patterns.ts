/** pattern-register, pattern-get and pattern-list: the project's conventions (docs/domain.md#continuity). */
import type { Command } from "commander";
import type { PatternView, Registration } from "../../domain/continuity/patterns.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
import { table } from "../format.ts";
import { intOption, repeatable } from "../options.ts";

const show = (p: PatternView) =>
  [`${p.name} (by ${p.author}, ${new Date(p.updatedAt).toISOString()})`, `  ${p.description}`, ...p.examples.map((e) => `  example: ${e}`)].join("\n");

export function register(program: Command) {
  program
    .command("pattern-register <name>")
    .description("register a project convention (re-registering a name replaces its text)")
    .requiredOption("--description <text>", "the convention")
    .option("--example <text>", "an example (repeatable)", repeatable)
    .action(
      action<{ description: string; example?: string[] }, Registration>(
        ({ target, team, opts, args }) =>
          call(target, "POST", "/continuity/patterns", { query: { team }, body: { name: args[0], description: opts.description, examples: opts.example } }),
        (p) => `${p.outcome} pattern ${show(p)}`,
      ),
    );
  program
    .command("pattern-get <name>")
    .description("one convention with its examples")
    .action(
      action<object, PatternView>(
        ({ target, team, args }) => call(target, "GET", `/continuity/patterns/${encodeURIComponent(args[0])}`, { query: { team } }),
        show,
      ),
    );
  program
    .command("pattern-list")
    .description("the team's conventions by name")
    .option("--limit <n>", "page size (≤ 500)")
    .option("--cursor <name>", "continue after this name (nextCursor of the previous page)")
    .action(
      action<{ limit?: string; cursor?: string }, { items: PatternView[]; nextCursor: string | null }>(
        ({ target, team, opts }) =>
          call(target, "GET", "/continuity/patterns", { query: { team, limit: intOption("--limit", opts.limit), cursor: opts.cursor } }),
        (page) =>
          [
            table(
              page.items.map((p) => ({ ...p, examples: p.examples.length, updated: new Date(p.updatedAt).toISOString() })),
              ["name", "description", "examples", "author", "updated"],
            ),
            page.nextCursor === null ? "" : `more: --cursor ${page.nextCursor}`,
          ]
            .filter(Boolean)
            .join("\n"),
      ),
    );
}
