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
  ask: endpoint({ method: "POST", path: "/chat/ask", input: AskInput, output: AskResult, waits: true }),
  broadcast: endpoint({ method: "POST", path: "/chat/broadcast", input: BroadcastInput, output: Broadcasted }),
  inbox: endpoint({ method: "POST", path: "/chat/inbox", input: CheckInboxInput, output: Inbox }),
  /** The caller's unread count; reads nothing (the inbox check is what marks messages read). */
  unread: endpoint({ method: "GET", path: "/chat/unread", input: UnreadInput, output: UnreadCount }),
  messages: endpoint({ method: "GET", path: "/chat/messages", input: TeamMessagesInput, output: TeamMessages }),
  reply: endpoint({ method: "POST", path: "/chat/reply", input: ReplyInput, output: Replied }),
  send: endpoint({ method: "POST", path: "/chat/send", input: SendMessageInput, output: Sent }),
};
