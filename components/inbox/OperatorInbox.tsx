"use client";

import { useEffect, useState } from "react";
import type { InboxItem } from "@/lib/api/chat.ts";
import { ANSWERABLE, useOperatorInbox } from "@/lib/queries/chat.ts";
import { ListState } from "../ui/Card.tsx";
import { When } from "../ui/When.tsx";
import { KindBadge } from "./KindBadge.tsx";
import { ReplyBox } from "./ReplyBox.tsx";

/**
 * The operator's own inbox. Checking it marks what it returns read (the hub's inbox rule), and a
 * live page checks it again at every event, so the page remembers which messages arrived unread
 * while it was open and keeps them on top, marked new, until the operator has seen them.
 */
export function OperatorInbox({ team }: { team: string }) {
  const inbox = useOperatorInbox(team);
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set());
  const messages = inbox.data?.pages.flatMap((p) => p.messages) ?? [];
  useEffect(() => {
    const unread = (inbox.data?.pages ?? []).flatMap((p) => p.messages.filter((m) => m.unread).map((m) => m.id));
    if (unread.length) setFresh((prev) => new Set([...prev, ...unread]));
  }, [inbox.data]);
  const isNew = (m: InboxItem) => fresh.has(m.id);
  const ordered = [...messages.filter(isNew), ...messages.filter((m) => !isNew(m))];
  const unseen = messages.filter(isNew).length;

  return (
    <div data-testid="operator-inbox">
      <div className="row inbox-head">
        <span className="muted" role="status">
          {unseen ? `${unseen} new` : "nothing new"}
          {inbox.data && ` · inbox of ${inbox.data.pages[0].member}`}
        </span>
        {unseen > 0 && (
          <button type="button" className="ghost small" onClick={() => setFresh(new Set())}>
            Mark all seen
          </button>
        )}
      </div>
      <ListState
        loading={inbox.isLoading}
        error={inbox.error}
        empty={messages.length === 0}
        hint="No messages to the operator in this team. Members reach you with team_send_message to 'operator'."
      />
      <ul className="messages">
        {ordered.map((m) => (
          <li key={m.id} className={isNew(m) ? "message unread" : "message"} data-testid={`inbox-message-${m.id}`}>
            <div className="meta">
              <strong>{m.from}</strong> <KindBadge kind={m.kind} />
              {isNew(m) && <span className="badge new">new</span>}
              {m.replyTo && <span className="muted"> re #{m.replyTo}</span>}
              <span className="spacer" />
              <span className="muted">
                #{m.id} · <When at={m.sentAt} />
              </span>
            </div>
            <p className="text">{m.text}</p>
            {ANSWERABLE.has(m.kind) && <ReplyBox team={team} messageId={m.id} from={m.from} />}
          </li>
        ))}
      </ul>
      {inbox.hasNextPage && (
        <button type="button" onClick={() => void inbox.fetchNextPage()} disabled={inbox.isFetchingNextPage}>
          {inbox.isFetchingNextPage ? "Loading…" : "Older messages"}
        </button>
      )}
    </div>
  );
}
