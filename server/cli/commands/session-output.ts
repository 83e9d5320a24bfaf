import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";
import { intOption } from "../options.ts";
import { nameOf } from "../session-options.ts";

export function register(program: Command) {
  program
    .command("output [name]")
    .description("the session's last response")
    .option("--name <name>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string }>) => hub.sessions.output({ name: nameOf(args[0], opts.name) }),
        (o) => o.output ?? "(no output yet)",
      ),
    );
  program
    .command("history [name]")
    .description("every interaction with its cost, turns, duration, tools and why it failed or stopped")
    .option("--name <name>")
    .option("--limit <n>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string; limit?: string }>) =>
          hub.sessions.history({ name: nameOf(args[0], opts.name), limit: intOption("--limit", opts.limit) }),
        (h) =>
          `${table(
            h.interactions.map((i) => ({
              ...i,
              cost: `$${i.costUsd.toFixed(4)}`,
              duration: i.durationMs === null ? null : `${(i.durationMs / 1000).toFixed(1)}s`,
              tools: i.toolsUsed.join(",") || null,
              prompt: i.prompt.slice(0, 40),
              error: i.error ?? "",
            })),
            ["n", "status", "cost", "turns", "duration", "tools", "prompt", "error"],
          )}\ntotal: $${h.costUsd.toFixed(4)}, ${h.turns} turns`,
      ),
    );
  program
    .command("transcript [name]")
    .description("the session's stored stream events, oldest first")
    .option("--name <name>")
    .option("--after <id>", "only entries after this id")
    .option("--limit <n>")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ name?: string; after?: string; limit?: string }>) =>
          hub.sessions.transcript({ name: nameOf(args[0], opts.name), after: intOption("--after", opts.after), limit: intOption("--limit", opts.limit) }),
        (t) =>
          t.entries
            .map((e) => `${e.id} ${e.direction === "in" ? "→" : "←"} ${e.type}${e.subtype ? `/${e.subtype}` : ""} ${JSON.stringify(e.payload).slice(0, 160)}`)
            .join("\n") || "(empty)",
      ),
    );
}
