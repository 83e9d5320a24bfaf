/**
 * `teamhub briefing`: what changed for you (or, for an operator, the member named by --as) since
 * the last checkpoint, as the SessionStart hook would inject it, with the current directory's git
 * facts when it is a work tree. Records nothing (only hooks record checkpoints).
 */
import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { factsSinceCheckpoint } from "../git-facts.ts";

export function register(program: Command) {
  program
    .command("briefing")
    .description(
      "what changed for you since your last checkpoint: contracts, newer versions of what you read, unread messages, decisions, patterns, changed files",
    )
    .option("--session <id>", "a Claude Code session id: brief from that session's own last checkpoint")
    .option("--as <member>", "operators: the briefing that member would get")
    .action(
      action(
        async ({ hub, opts }: Ctx<{ session?: string; as?: string }>) => {
          const asked = { claudeSessionId: opts.session, member: opts.as };
          return hub.continuity.briefingPost({ ...asked, git: await factsSinceCheckpoint(hub, process.cwd(), asked) });
        },
        (b) => b.markdown,
      ),
    );
}
