import { endpoint } from "../endpoint.ts";
import {
  AskInput,
  AskResult,
  BroadcastInput,
  Broadcasted,
  CheckInboxInput,
  Inbox,
  Replied,
  ReplyInput,
  Sent,
  SendMessageInput,
  TeamMessages,
  TeamMessagesInput,
  UnreadCount,
  UnreadInput,
} from "../chat.ts";

export const chat = {
  /** Answers when the reply arrives or the timeout passes; a client that disconnects ends the wait. */
  ask: endpoint({ method: "POST", path: "/chat/ask", input: AskInput, output: AskResult, waits: true }),
  broadcast: endpoint({ method: "POST", path: "/chat/broadcast", input: BroadcastInput, output: Broadcasted }),
  // POST, not GET: checking marks the returned messages read.
  inbox: endpoint({ method: "POST", path: "/chat/inbox", input: CheckInboxInput, output: Inbox }),
  /** The caller's unread count; reads nothing (the inbox check is what marks messages read). */
  unread: endpoint({ method: "GET", path: "/chat/unread", input: UnreadInput, output: UnreadCount }),
  // A GET: unlike the inbox, the operator's view of the team's conversation marks nothing read.
  messages: endpoint({ method: "GET", path: "/chat/messages", input: TeamMessagesInput, output: TeamMessages }),
  reply: endpoint({ method: "POST", path: "/chat/reply", input: ReplyInput, output: Replied }),
  send: endpoint({ method: "POST", path: "/chat/send", input: SendMessageInput, output: Sent }),
};
