/**
 * `teamhub briefing`: what changed for you (or, for an operator, the member named by --as) since
 * the last checkpoint, as the SessionStart hook would inject it, with the current directory's git
 * facts when it is a work tree. Records nothing (only hooks record checkpoints).
 */
import type { Command } from "commander";
import type { Briefing } from "../../domain/continuity/briefing.service.ts";
import { call } from "../api-client.ts";
import { action } from "../action.ts";
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
      action<{ session?: string; as?: string }, Briefing>(
        async ({ target, team, opts }) => {
          const git = await factsSinceCheckpoint(target, team, process.cwd(), { claudeSessionId: opts.session, member: opts.as });
          return call(target, "POST", "/continuity/briefing", { query: { team }, body: { claudeSessionId: opts.session, member: opts.as, git } });
        },
        (b) => b.markdown,
      ),
    );
}
