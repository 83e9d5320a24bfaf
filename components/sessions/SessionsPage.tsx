"use client";

import { useSessions } from "@/lib/queries/sessions.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { SessionTable } from "./SessionTable.tsx";
import { SpawnForm } from "./SpawnForm.tsx";

/** The team's sessions, live, and the form that starts a new one. */
export function SessionsPage() {
  const { team } = useTeam();
  const sessions = useSessions(team);
  const items = sessions.data ?? [];
  return (
    <div className="sessions-page">
      <Card title={`Sessions in ${team}`} testId="sessions">
        <ListState
          loading={sessions.isLoading}
          error={sessions.error}
          empty={items.length === 0}
          hint="No sessions in this team yet. Start one with the form."
        />
        {items.length > 0 && <SessionTable items={items} />}
      </Card>
      <Card title="Start a session" testId="spawn">
        <SpawnForm team={team} />
      </Card>
    </div>
  );
}
