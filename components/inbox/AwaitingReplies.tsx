"use client";

import { useAwaitingReply } from "@/lib/queries/chat.ts";
import { ListState } from "../ui/Card.tsx";
import { When } from "../ui/When.tsx";
import { ReplyBox } from "./ReplyBox.tsx";

/** Questions (team_ask) nobody has answered yet; those put to the operator can be answered here. */
export function AwaitingReplies({ team }: { team: string }) {
  const asks = useAwaitingReply(team);
  const items = asks.data?.messages ?? [];
  return (
    <div data-testid="awaiting-replies">
      <ListState loading={asks.isLoading} error={asks.error} empty={items.length === 0} hint="No question is waiting for an answer." />
      <ul className="messages">
        {items.map((m) => (
          <li key={m.id} className="message" data-testid={`ask-${m.id}`}>
            <div className="meta">
              <strong>{m.from}</strong> asked {m.to}
              <span className="spacer" />
              <span className="muted">
                {m.readAt ? `seen by ${m.to}` : `not seen by ${m.to} yet`} · #{m.id} · <When at={m.sentAt} />
              </span>
            </div>
            <p className="text">{m.text}</p>
            {m.to === "operator" && <ReplyBox team={team} messageId={m.id} from={m.from} />}
          </li>
        ))}
      </ul>
      {asks.data?.nextBefore && <p className="muted">Showing the newest {items.length}; filter the conversation below by kind “ask” for older ones.</p>}
    </div>
  );
}
