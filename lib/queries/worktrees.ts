/**
 * Work trees on the dashboard (docs/worktrees.md): a session's changes, merge and discard, the team's overlaps,
 * and two runs compared. Keys sit under the team, so the /ws events of a turn or a merge refresh them.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InputOf } from "../api/endpoint.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

/** The session's changes now, or up to a commit (an artifact version's code) with `at`. */
export const changesQuery = (team: string, name: string, at?: string) =>
  queryOptions({ queryKey: [...keys.session(team, name), "changes", at ?? "now"], queryFn: () => apiCall(api.worktrees.changes, { name, at }), retry: false });

export const useChanges = (team: string, name: string, at?: string) => useQuery(changesQuery(team, name, at));

export const useOverlaps = (team: string) => useQuery({ queryKey: keys.overlaps(team), queryFn: () => apiCall(api.worktrees.overlaps, { team }) });

export const useCompare = (team: string, a: string, b: string) =>
  useQuery({
    queryKey: [...keys.team(team), "compare", a, b],
    queryFn: () => apiCall(api.worktrees.compare, { team, a, b }),
    enabled: a !== "" && b !== "",
    retry: false,
  });

/** The team's hub branches no session works on: a replay's first run, a deleted session's. */
export const useLeftBranches = (team: string) =>
  useQuery({ queryKey: [...keys.team(team), "left-branches"], queryFn: () => apiCall(api.worktrees.leftBranches, { team }) });

/** Artifacts looked at for a run's versions: a run publishes a few, so this bounds the calls, not the answer. */
const RUN_ARTIFACTS = 20;

/**
 * The artifact versions published from the given sessions' work trees (each with its `code`), for comparing two runs
 * beside their code: the artifacts whose current version a session published, and all their versions.
 */
export const useRunVersions = (team: string, sessions: string[]) =>
  useQuery({
    queryKey: [...keys.team(team), "run-versions", ...sessions],
    queryFn: async () => {
      const lists = await Promise.all(sessions.map((publisher) => apiCall(api.artifacts.list, { team, publisher, limit: RUN_ARTIFACTS })));
      const ids = [...new Set(lists.flatMap((l) => l.items.map((a) => a.id)))];
      const histories = await Promise.all(ids.map((id) => apiCall(api.artifacts.history, { team, id })));
      return histories.flatMap((h) => h.versions.filter((v) => v.code !== null));
    },
  });

export type MergeBody = Omit<InputOf<typeof api.worktrees.merge>, "name">;

/** A dry run changes nothing, so it refreshes nothing; a merge refreshes the team. */
export function useMerge(team: string, name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MergeBody) => apiCall(api.worktrees.merge, { name, ...body }),
    onSuccess: (r) => (r.outcome === "merged" ? qc.invalidateQueries({ queryKey: keys.team(team) }) : undefined),
  });
}

export function useDiscard(team: string, name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(api.worktrees.discard, { name, confirm: true }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }),
  });
}
