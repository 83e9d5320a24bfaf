"use client";

import { useState } from "react";
import { useRoster } from "@/lib/queries/roster.ts";
import { useSessions } from "@/lib/queries/sessions.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { AwaitingReplies } from "./AwaitingReplies.tsx";
import { ComposeForm } from "./ComposeForm.tsx";
import { OperatorInbox } from "./OperatorInbox.tsx";
import { RosterTable } from "./RosterTable.tsx";
import { TeamConversation } from "./TeamConversation.tsx";

/** Inbox and chat of the selected team, as the operator (the person at the dashboard). */
export function InboxPage() {
  const { team } = useTeam();
  const roster = useRoster(team);
  const sessions = useSessions(team);
  const [to, setTo] = useState("");
  const members = (roster.data ?? []).map((m) => m.name);
  return (
    <>
      <h1 className="page-title">Inbox</h1>
      <div className="inbox-layout">
        <div className="stack">
          <Card title="Write" testId="compose">
            <ComposeForm team={team} members={members} to={to} onTo={setTo} />
          </Card>
          <Card title="Your inbox (operator)" testId="inbox">
            <OperatorInbox key={team} team={team} />
          </Card>
        </div>
        <div className="stack">
          <Card title="Asks awaiting reply" testId="asks">
            <AwaitingReplies team={team} />
          </Card>
          <Card title="Roster" testId="roster-card">
            <ListState
              loading={roster.isLoading}
              error={roster.error}
              empty={members.length === 0}
              hint={
                <>
                  Nobody is on this team&apos;s roster. Members join with <code>teamhub team-member &lt;name&gt;</code> or <code>team_spawn</code>.
                </>
              }
            />
            {sessions.error && <p className="error">Sessions unavailable: {(sessions.error as Error).message}</p>}
            {members.length > 0 && <RosterTable members={roster.data ?? []} sessions={sessions.data ?? []} onMessage={setTo} />}
          </Card>
        </div>
      </div>
      <Card title="Team conversation" testId="conversation">
        <TeamConversation team={team} members={[...new Set(["operator", ...members])]} />
      </Card>
    </>
  );
}
