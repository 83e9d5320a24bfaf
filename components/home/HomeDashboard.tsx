"use client";

import { useArtifacts, useContracts, useEvents, useOverview } from "@/lib/queries/home.ts";
import { useOverlaps } from "@/lib/queries/worktrees.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { EmptyTeamCard } from "../start/EmptyTeamCard.tsx";
import { ArtifactTable } from "./ArtifactTable.tsx";
import { ContractTable } from "./ContractTable.tsx";
import { ContractsByState } from "./ContractsByState.tsx";
import { CostCard } from "./CostCard.tsx";
import { EventFeed } from "./EventFeed.tsx";
import { NeedsAttention } from "./NeedsAttention.tsx";
import { TeamTable } from "./TeamTable.tsx";

export function HomeDashboard() {
  const { team } = useTeam();
  const overview = useOverview(team);
  const events = useEvents(team);
  const artifacts = useArtifacts(team);
  const contracts = useContracts(team);
  const overlaps = useOverlaps(team);
  const teams = overview.data?.teams ?? [];
  const empty = contracts.data?.items.length === 0 && artifacts.data?.items.length === 0;

  return (
    <div className="grid">
      {empty && <EmptyTeamCard team={team} />}
      <Card title="Needs attention" testId="attention">
        <ListState loading={overview.isLoading} error={overview.error} empty={false} hint="" />
        {overview.data && <NeedsAttention team={team} attention={overview.data.attention} overlaps={overlaps.data?.files} />}
      </Card>
      <Card title="Contracts by state" testId="contracts-by-state">
        <ContractsByState counts={overview.data?.contractsByStatus ?? {}} />
      </Card>
      <Card title="Cost so far" testId="costs" wide>
        <ListState loading={overview.isLoading} error={overview.error} empty={false} hint="" />
        {overview.data && <CostCard costs={overview.data.costs} />}
      </Card>
      <Card title="Teams" testId="teams">
        <ListState
          loading={overview.isLoading}
          error={overview.error}
          empty={teams.length === 0}
          hint={`No team has been written to yet: ${team} is made by its first contract, artifact or member.`}
        />
        {teams.length > 0 && <TeamTable items={teams} />}
      </Card>
      <Card title="Contracts" testId="contracts">
        <ListState loading={contracts.isLoading} error={contracts.error} empty={(contracts.data?.items.length ?? 0) === 0} hint="No contracts in this team." />
        {contracts.data && contracts.data.items.length > 0 && <ContractTable items={contracts.data.items} />}
      </Card>
      <Card title="Artifacts" testId="artifacts">
        <ListState loading={artifacts.isLoading} error={artifacts.error} empty={(artifacts.data?.items.length ?? 0) === 0} hint="No artifacts in this team." />
        {artifacts.data && artifacts.data.items.length > 0 && <ArtifactTable items={artifacts.data.items} />}
      </Card>
      <Card title="Recent events" testId="events" wide>
        <ListState
          loading={events.isLoading}
          error={events.error}
          empty={(events.data?.events.length ?? 0) === 0}
          hint="Nothing has happened in this team yet."
        />
        {events.data && events.data.events.length > 0 && <EventFeed events={events.data.events} />}
      </Card>
    </div>
  );
}
