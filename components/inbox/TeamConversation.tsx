"use client";

import { useState } from "react";
import { MESSAGE_KINDS } from "@/lib/api/chat.ts";
import { groupDeliveries } from "@/lib/group-deliveries.ts";
import { useTeamMessages, type MessageFilters } from "@/lib/queries/chat.ts";
import { ListState } from "../ui/Card.tsx";
import { MessageRow } from "./MessageRow.tsx";

/** Everything said in the team, newest first, filtered by member and kind; looking marks nothing read. */
export function TeamConversation({ team, members }: { team: string; members: string[] }) {
  const [filters, setFilters] = useState<MessageFilters>({});
  const messages = useTeamMessages(team, filters);
  const rows = messages.data?.pages.flatMap((p) => p.messages) ?? [];
  const set = (key: keyof MessageFilters, value: string) => setFilters((f) => ({ ...f, [key]: value || undefined }));
  return (
    <div data-testid="team-conversation">
      <div className="toolbar" role="search" aria-label="filter messages">
        <label>
          member{" "}
          <select aria-label="member" value={filters.member ?? ""} onChange={(e) => set("member", e.target.value)}>
            <option value="">anyone</option>
            {members.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label>
          kind{" "}
          <select aria-label="kind" value={filters.kind ?? ""} onChange={(e) => set("kind", e.target.value)}>
            <option value="">any</option>
            {MESSAGE_KINDS.map((k) => (
              <option key={k}>{k}</option>
            ))}
          </select>
        </label>
      </div>
      <ListState
        loading={messages.isLoading}
        error={messages.error}
        empty={rows.length === 0}
        hint={filters.member || filters.kind ? "No message matches these filters." : "Nobody has written anything in this team yet."}
      />
      <ul className="messages">
        {groupDeliveries(rows).map((g) => (
          <MessageRow key={g.first.id} group={g} />
        ))}
      </ul>
      {messages.hasNextPage && (
        <button type="button" onClick={() => void messages.fetchNextPage()} disabled={messages.isFetchingNextPage}>
          {messages.isFetchingNextPage ? "Loading…" : "Older messages"}
        </button>
      )}
    </div>
  );
}
