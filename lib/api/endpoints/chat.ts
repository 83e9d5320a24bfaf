import { endpoint, Unchecked } from "../endpoint.ts";
import { AskInput, BroadcastInput, CheckInboxInput, ReplyInput, SendMessageInput, TeamMessagesInput } from "../chat.ts";

export const chat = {
  ask: endpoint({ method: "POST", path: "/chat/ask", input: AskInput, output: Unchecked, waits: true }),
  broadcast: endpoint({ method: "POST", path: "/chat/broadcast", input: BroadcastInput, output: Unchecked }),
  inbox: endpoint({ method: "POST", path: "/chat/inbox", input: CheckInboxInput, output: Unchecked }),
  messages: endpoint({ method: "GET", path: "/chat/messages", input: TeamMessagesInput, output: Unchecked }),
  reply: endpoint({ method: "POST", path: "/chat/reply", input: ReplyInput, output: Unchecked }),
  send: endpoint({ method: "POST", path: "/chat/send", input: SendMessageInput, output: Unchecked }),
};
