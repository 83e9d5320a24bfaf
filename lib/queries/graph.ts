/**
 * Queries and changes of the canvas page (keys in ./keys.ts). Every change goes through the
 * hub's existing contract routes; the graph itself is refetched when /ws says something changed
 * (and right after a change of ours, so the canvas does not wait for the event).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreateContractInput, Dependency } from "../api/contracts.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

/** A transition of the panel: the contract endpoint it calls and what it sends. */
export type ContractAction =
  { op: "start" } | { op: "complete"; summary?: string; force?: boolean; reason?: string } | { op: "fail"; reason: string } | { op: "reopen"; reason?: string };

/** @example const graph = useGraph(team); graph.data?.nodes.length */
export const useGraph = (team: string) => useQuery({ queryKey: keys.graph(team), queryFn: () => apiCall(api.graph.get, { team }) });

export const useContract = (team: string, id: string) =>
  useQuery({ queryKey: keys.contract(team, id), queryFn: () => apiCall(api.contracts.get, { team, id }) });

/** Refetches the team's data at once: the change is ours, the /ws event will only confirm it. */
function useTeamChange<I, O>(team: string, fn: (input: I) => Promise<O>, onMade?: () => void) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      onMade?.();
      return qc.invalidateQueries({ queryKey: keys.team(team) });
    },
  });
}

export const useContractAction = (team: string, id: string) =>
  useTeamChange(team, ({ op, ...body }: ContractAction) => apiCall(api.contracts[op], { team, id, ...body }));

/** Adds or removes one dependency of contract `id` (`contract-depend` / `contract-undepend`). */
export const useDependencyChange = (team: string) =>
  useTeamChange(team, ({ id, dependency, remove }: { id: string; dependency: Dependency; remove?: boolean }) =>
    apiCall(remove ? api.contracts.removeDependency : api.contracts.addDependency, { team, id, dependency }),
  );

/**
 * The Quick Start chain in this (empty) team: the contracts and artifacts the canvas then draws (docs/domain.md#quick-start-demo).
 * `onMade` runs before the refetch, and from here rather than from `mutate`'s own callbacks: with the refetch the team is no
 * longer empty, the empty state that asked goes away, and callbacks given to `mutate` do not run once it has.
 */
export const useQuickStartDemo = (team: string, onMade?: () => void) => useTeamChange(team, () => apiCall(api.teams.demo, { team }), onMade);

export const useCreateContract = (team: string) =>
  useTeamChange(team, (input: Omit<CreateContractInput, "team">) => apiCall(api.contracts.create, { team, ...input }));
