import type { Command } from "commander";
import type { Inbox } from "../../../lib/api/chat.ts";
import { action, type Ctx } from "../action.ts";
import { intOption } from "../options.ts";

function renderInbox(r: Inbox): string {
  const lines = r.messages.map((m) => {
    const head = `${m.unread ? "*" : " "} #${m.id} from ${m.from} (${m.kind}${m.replyTo ? `, re #${m.replyTo}` : ""}${m.archived ? ", archived" : ""}) ${m.sentAt.toISOString()}`;
    return `${head}\n    ${m.text.replaceAll("\n", "\n    ")}`;
  });
  if (lines.length === 0) lines.push("(no messages)");
  if (r.unreadLeft) lines.push(`${r.unreadLeft} more unread: run team-inbox again`);
  if (r.nextBefore !== null) lines.push(`older messages: team-inbox --before ${r.nextBefore}`);
  return lines.join("\n");
}

export function register(program: Command) {
  program
    .command("team-send <to> <message>")
    .description("send a direct message to a member on the roster (or 'operator')")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.chat.send({ to: args[0], message: args[1] }),
        (r) => `sent message #${r.messageId} to ${r.to}`,
      ),
    );
  program
    .command("team-broadcast <message>")
    .description("send a message to every member on the roster except yourself")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.chat.broadcast({ message: args[0] }),
        (r) => `broadcast to ${r.recipients.length} member(s): ${r.recipients.join(", ")}`,
      ),
    );
  program
    .command("team-inbox")
    .description("your messages, unread first (marked read once shown); * marks unread")
    .option("--unread", "only unread messages")
    .option("--archived", "include messages archived because the inbox exceeded its live limit")
    .option("--limit <n>", "how many messages (default 50, at most 500)")
    .option("--before <id>", "only messages older than this id (to page back)")
    .action(
      action(
        ({ hub, opts }: Ctx<{ unread?: boolean; archived?: boolean; limit?: string; before?: string }>) =>
          hub.chat.inbox({
            unreadOnly: opts.unread ?? false,
            includeArchived: opts.archived ?? false,
            limit: intOption("--limit", opts.limit),
            before: intOption("--before", opts.before),
          }),
        renderInbox,
      ),
    );
  program
    .command("team-ask <to> <question>")
    .description("ask a member and wait for the reply (or the timeout)")
    .option("--timeout <seconds>", "how long to wait, 1–600 (default 120)")
    .action(
      action(
        ({ hub, opts, args }: Ctx<{ timeout?: string }>) =>
          hub.chat.ask({ to: args[0], question: args[1], timeoutSeconds: intOption("--timeout", opts.timeout) }),
        (r) =>
          r.answered
            ? `${r.reply.from} (#${r.reply.messageId}): ${r.reply.text}`
            : `no reply from ${r.to} within ${r.waitedSeconds} s; question #${r.messageId} stays in their inbox, and a late reply will reach yours`,
      ),
    );
  program
    .command("team-reply <messageId> <message>")
    .description("reply to a message in your inbox; the reply goes to its sender")
    .action(
      action(
        ({ hub, args }: Ctx<object>) => hub.chat.reply({ messageId: intOption("<messageId>", args[0]), message: args[1] }),
        (r) => `replied to #${r.replyTo}: message #${r.messageId} to ${r.to}`,
      ),
    );
}
