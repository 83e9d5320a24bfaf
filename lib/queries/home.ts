/** Queries of the overview page (keys in ./keys.ts). */
import { useQuery } from "@tanstack/react-query";
import type { BudgetView } from "../api/budgets.ts";
import type { StaleArtifact } from "../api/lineage.ts";
import { apiGet } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type TeamSummary = { id: string; archived: boolean; artifacts: number; contracts: number; events: number };
export type Attention = {
  approvals: Array<{ id: number; session: string; toolName: string; input: Record<string, unknown>; reason: string; createdAt: string; expiresAt: string }>;
  stalledSessions: Array<{ name: string; status: string; stalledAt: string }>;
  sessionProblems: Array<{ name: string; status: string; exitReason: string | null; problem: string; updatedAt: string }>;
  budgets: Array<Omit<BudgetView, "updatedAt"> & { updatedAt: string }>;
  failedContracts: Array<{ id: string; title: string; assignee: string; statusReason: string | null; updatedAt: string }>;
  staleArtifacts: StaleArtifact[];
};
/** A member's or contract's cost; with a budget, in the budget's window (server/domain/overview/costs.ts). */
export type ScopeCost = { name: string; costUsd: number; window: string; budgetUsd: number | null };
export type Costs = {
  totalUsd: number;
  perSession: Array<{ name: string; status: string; costUsd: number }>;
  perMember: ScopeCost[];
  perContract: ScopeCost[];
  perDay: Array<{ day: string; costUsd: number }>;
};
export type OverviewData = { teams: TeamSummary[]; team: string; contractsByStatus: Record<string, number>; attention: Attention; costs: Costs };
export type EventItem = { id: number; type: string; subject: string; principal: string; at: string; depth: number; payload: Record<string, unknown> };
export type ArtifactItem = {
  id: string;
  type: string;
  name: string;
  tags: string[];
  latestVersion: number;
  currentVersion: number | null;
  status: string;
  publisher: string | null;
  updatedAt: string;
};
export type ContractItem = {
  id: string;
  title: string;
  assignee: string;
  assigner: string;
  status: string;
  statusReason: string | null;
  priority: string;
  retryCount: number;
  updatedAt: string;
};

export const useOverview = (team: string) => useQuery({ queryKey: keys.overview(team), queryFn: () => apiGet<OverviewData>("/api/overview", { team }) });
export const useEvents = (team: string) =>
  useQuery({ queryKey: keys.events(team), queryFn: () => apiGet<{ events: EventItem[] }>("/api/events", { team, limit: 40 }) });
export const useArtifacts = (team: string) =>
  useQuery({ queryKey: keys.artifacts(team), queryFn: () => apiGet<{ items: ArtifactItem[] }>("/api/artifacts", { team, limit: 100 }) });
export const useContracts = (team: string) =>
  useQuery({ queryKey: keys.contracts(team), queryFn: () => apiGet<{ items: ContractItem[] }>("/api/contracts", { team, limit: 200 }) });
