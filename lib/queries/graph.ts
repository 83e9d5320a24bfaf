/**
 * Queries and changes of the canvas page (keys in ./keys.ts). Every change goes through the
 * hub's existing contract routes; the graph itself is refetched when /ws says something changed
 * (and right after a change of ours, so the canvas does not wait for the event).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateContractInput, Dependency, ExpectedOutput } from "../api/contracts.ts";
import type { GraphView } from "../api/graph.ts";
import { apiGet, apiSend } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type ContractDetail = {
  id: string;
  title: string;
  description: string;
  assigner: string;
  assignee: string;
  inputs: Record<string, unknown>;
  dependencies: Dependency[];
  expectedOutputs: ExpectedOutput[];
  priority: string;
  maxRetries: number;
  retryCount: number;
  status: string;
  statusReason: string | null;
  outputs: Array<{ artifactId: string; version: number }> | null;
  deadlineAt: string | null;
  updatedAt: string;
};

/** A transition of the panel: the route's last segment and its body. */
export type ContractAction =
  { op: "start" } | { op: "complete"; summary?: string; force?: boolean; reason?: string } | { op: "fail"; reason: string } | { op: "reopen"; reason?: string };

/** @example const graph = useGraph(team); graph.data?.nodes.length */
export const useGraph = (team: string) => useQuery({ queryKey: keys.graph(team), queryFn: () => apiGet<GraphView>("/api/graph", { team }) });

export const useContract = (team: string, id: string) =>
  useQuery({ queryKey: keys.contract(team, id), queryFn: () => apiGet<ContractDetail>(`/api/contracts/${encodeURIComponent(id)}`, { team }) });

/** Refetches the team's data at once: the change is ours, the /ws event will only confirm it. */
function useTeamChange<I, O>(team: string, fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }) });
}

export const useContractAction = (team: string, id: string) =>
  useTeamChange(team, ({ op, ...body }: ContractAction) => apiSend<ContractDetail>("POST", `/api/contracts/${encodeURIComponent(id)}/${op}`, body, { team }));

/** Adds or removes one dependency of contract `id` (`contract-depend` / `contract-undepend`). */
export const useDependencyChange = (team: string) =>
  useTeamChange(team, ({ id, dependency, remove }: { id: string; dependency: Dependency; remove?: boolean }) =>
    apiSend<ContractDetail>(remove ? "DELETE" : "POST", `/api/contracts/${encodeURIComponent(id)}/dependencies`, { dependency }, { team }),
  );

export const useCreateContract = (team: string) =>
  useTeamChange(team, (input: Omit<CreateContractInput, "team">) => apiSend<ContractDetail>("POST", "/api/contracts", input, { team }));
