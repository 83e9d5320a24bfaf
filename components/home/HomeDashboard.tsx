"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { connectLive, type LiveState } from "@/lib/ws-client.ts";
import { keys, useArtifacts, useContracts, useEvents, useOverview } from "@/lib/queries/home.ts";
import { Card, ListState } from "../ui/Card.tsx";
import { ArtifactTable } from "./ArtifactTable.tsx";
import { ContractTable } from "./ContractTable.tsx";
import { ContractsByState } from "./ContractsByState.tsx";
import { EventFeed } from "./EventFeed.tsx";

function useLiveTeam(team: string): LiveState {
  const qc = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    // A burst of events (a cascade) becomes one refetch.
    const invalidate = () => {
      clearTimeout(pending.current);
      pending.current = setTimeout(() => void qc.invalidateQueries({ queryKey: keys.team(team) }), 100);
    };
    return connectLive({ teams: [], onEvent: invalidate, onState: setState });
  }, [qc, team]);
  return state;
}

export function HomeDashboard() {
  const [team, setTeam] = useState("default");
  const live = useLiveTeam(team);
  const overview = useOverview(team);
  const events = useEvents(team);
  const artifacts = useArtifacts(team);
  const contracts = useContracts(team);
  const teams = overview.data?.teams ?? [];

  return (
    <>
      <header className="top">
        <h1>Team Hub</h1>
        <label className="muted">
          team{" "}
          <select aria-label="team" value={team} onChange={(e) => setTeam(e.target.value)}>
            {[...new Set(["default", ...teams.map((t) => t.id)])].map((id) => (
              <option key={id}>{id}</option>
            ))}
          </select>
        </label>
        <span className="spacer" />
        <span className={`live live-${live === "live" ? "on" : live === "offline" ? "off" : "wait"}`} data-testid="live">
          <span className="dot" /> {live === "live" ? "live" : live}
        </span>
      </header>
      <main>
        <div className="grid">
          <Card title="Contracts by state" testId="contracts-by-state">
            <ContractsByState counts={overview.data?.contractsByStatus ?? {}} />
          </Card>
          <Card title="Teams" testId="teams">
            <ListState loading={overview.isLoading} error={overview.error} empty={teams.length === 0} hint="No teams yet: the first artifact or contract creates one." />
            {teams.length > 0 && (
              <table>
                <thead>
                  <tr><th>Team</th><th>Artifacts</th><th>Contracts</th><th>Events</th></tr>
                </thead>
                <tbody>
                  {teams.map((t) => (
                    <tr key={t.id}>
                      <td className="mono">{t.id}{t.archived && <span className="muted"> (archived)</span>}</td>
                      <td>{t.artifacts}</td>
                      <td>{t.contracts}</td>
                      <td>{t.events}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </Card>
          <Card title="Contracts" testId="contracts">
            <ListState
              loading={contracts.isLoading}
              error={contracts.error}
              empty={(contracts.data?.items.length ?? 0) === 0}
              hint={<>No contracts in this team. Create one with <code>teamhub contract-create …</code></>}
            />
            {contracts.data && contracts.data.items.length > 0 && <ContractTable items={contracts.data.items} />}
          </Card>
          <Card title="Artifacts" testId="artifacts">
            <ListState
              loading={artifacts.isLoading}
              error={artifacts.error}
              empty={(artifacts.data?.items.length ?? 0) === 0}
              hint={<>No artifacts in this team. Publish one with <code>teamhub artifact-publish …</code></>}
            />
            {artifacts.data && artifacts.data.items.length > 0 && <ArtifactTable items={artifacts.data.items} />}
          </Card>
          <Card title="Recent events" testId="events" wide>
            <ListState loading={events.isLoading} error={events.error} empty={(events.data?.events.length ?? 0) === 0} hint="Nothing has happened in this team yet." />
            {events.data && events.data.events.length > 0 && <EventFeed events={events.data.events} />}
          </Card>
        </div>
      </main>
    </>
  );
}
