/** Chat (docs/domain.md#chat): direct messages, broadcasts, asks and replies between a team's members, and their inboxes. */
import { ASK_TIMEOUT, INBOX_PAGE, MAX_MESSAGE_CHARS } from "../../lib/api/chat.ts";
import { broadcast, sendMessage } from "../domain/chat/send.ts";
import { reply } from "../domain/chat/reply.ts";
import { ask } from "../domain/chat/ask.ts";
import { checkInbox, unreadCount } from "../domain/chat/inbox.ts";
import { teamMessages } from "../domain/chat/team-messages.ts";
import { area } from "./define.ts";
import { A_VIEW, TEAM } from "./fields.ts";

const TO = "The member to write to: a name on the team roster (see team_roster), or 'operator' for the person at the dashboard. You are the sender.";
const MESSAGE = `The text, at most ${MAX_MESSAGE_CHARS} characters. Keep it short; put real content in an artifact and mention its id.`;
const LIMITS =
  "At most 10 messages per minute per sender, and at most 5 direct messages between two members per minute before the pair is blocked for a minute (team settings may differ); a refusal says when to retry.";

export const chat = area("chat", {
  send: {
    may: "member",
    serve: ({ deps }, a, i) => sendMessage(deps, a, i),
    mcp: {
      name: "team_send_message",
      title: "Send a direct message",
      description: `Send a direct message to one team member; it lands in their inbox (team_check_inbox). ${LIMITS}`,
      describe: { team: TEAM, to: TO, message: MESSAGE },
    },
  },
  broadcast: {
    may: "member",
    serve: ({ deps }, a, i) => broadcast(deps, a, i),
    mcp: {
      name: "team_broadcast",
      title: "Broadcast to the team",
      description:
        "Send one message to every member on the team roster except yourself. Counts as one message for the rate limit. Use it for news everyone needs; use team_send_message for one member.",
      describe: { team: TEAM, message: MESSAGE },
    },
  },
  inbox: {
    may: "member",
    serve: ({ deps }, a, i) => checkInbox(deps, a, i),
    mcp: {
      name: "team_check_inbox",
      title: "Check your inbox",
      description:
        "Your messages: unread first, then read, newest first within each; the unread ones returned are marked read. Check before starting work and after each major step. " +
        "Each message has an id (answer it with team_reply), the sender, its kind (dm, broadcast, ask, reply, notify, contract, …) and replyTo when it answers one of yours. " +
        "An 'ask' means someone is waiting for your team_reply; a 'contract' notice says what happened to one of your contracts (created for you, ready, reopened with the reason, reassigned, rolled back) and what to do now.",
      describe: {
        team: TEAM,
        unreadOnly: "Only unread messages (default false).",
        includeArchived: "Also messages archived because the inbox exceeded its live limit (default false).",
        limit: `How many messages, 1–${INBOX_PAGE.max} (default ${INBOX_PAGE.default}).`,
        before: "Only messages with an id below this: pass the nextBefore of the previous answer to page back through older read messages.",
      },
    },
  },
  ask: {
    may: "member",
    /** Waits for the reply or the timeout; `signal` ends the wait early when the caller goes away. */
    serve: ({ deps }, a, i, signal) => ask(deps, a, i, signal),
    mcp: {
      name: "team_ask",
      title: "Ask and wait for the answer",
      description:
        "Ask one member a question and WAIT until they answer with team_reply, or until the timeout. Returns {answered: true, reply: {from, text, messageId, at}}, " +
        "or {answered: false, timedOut: true} when nobody replied in time (a later reply still arrives in your inbox). Use it when you cannot go on without the answer. " +
        LIMITS,
      describe: {
        team: TEAM,
        to: TO,
        question: MESSAGE,
        timeoutSeconds: `How long to wait, ${ASK_TIMEOUT.minSeconds}–${ASK_TIMEOUT.maxSeconds} seconds (default ${ASK_TIMEOUT.defaultSeconds}).`,
      },
    },
  },
  reply: {
    may: "member",
    serve: ({ deps }, a, i) => reply(deps, a, i),
    mcp: {
      name: "team_reply",
      title: "Reply to a message",
      description:
        "Reply to a message in your inbox (by its id from team_check_inbox). The reply goes to that message's sender; replying to an ask answers the member waiting on it.",
      describe: { team: TEAM, messageId: "The id of the message you are answering; it must be in your own inbox.", message: MESSAGE },
    },
  },
  /** The whole team's conversation, for operators; marks nothing read. */
  messages: {
    may: "chat.team_messages",
    serve: ({ deps }, a, i) => teamMessages(deps, a, i),
    mcp: { none: A_VIEW },
  },
  unread: {
    may: "member",
    serve: ({ deps }, a, i) => unreadCount(deps, a, i),
    mcp: { none: A_VIEW },
  },
});
