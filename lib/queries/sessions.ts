/**
 * Queries and changes of the sessions pages (keys in ./keys.ts). Every change invalidates its
 * team at once for immediate feedback; the /ws events that follow keep the pages current.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { InputOf } from "../api/endpoint.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export const useSessions = (team: string) => useQuery({ queryKey: keys.sessions(team), queryFn: () => apiCall(api.sessions.list, { team, limit: 500 }) });

export const useSession = (team: string, name: string) =>
  useQuery({ queryKey: keys.session(team, name), queryFn: () => apiCall(api.sessions.status, { name }), retry: false });

export const useSessionHistory = (team: string, name: string) =>
  useQuery({ queryKey: [...keys.session(team, name), "history"], queryFn: () => apiCall(api.sessions.history, { name, limit: 500 }) });

export const transcriptPage = (name: string, after: number, limit: number) => apiCall(api.sessions.transcript, { name, after: after || undefined, limit });

function useTeamMutation<I, O>(team: string, fn: (input: I) => Promise<O>) {
  const qc = useQueryClient();
  return useMutation({ mutationFn: fn, onSuccess: () => qc.invalidateQueries({ queryKey: keys.team(team) }) });
}

/** The hub's runtimes, fixed while it runs: the spawn form's choices of runtime and model. */
export const useRuntimes = () => useQuery({ queryKey: keys.runtimes(), queryFn: () => apiCall(api.runtimes.list, {}), staleTime: Infinity });

export type SpawnBody = Omit<InputOf<typeof api.sessions.spawn>, "team">;

/** A plain session, or a team member (roster, worker guide, its own identity) when a role is given. */
export const useSpawn = (team: string) =>
  useTeamMutation(team, ({ body, role }: { body: SpawnBody; role?: string }) =>
    role === undefined ? apiCall(api.sessions.spawn, { ...body, team }) : apiCall(api.sessions.teamSpawn, { ...body, team, role }),
  );

/** Lifecycle without a body; stop and kill return at once (the page follows the exit live). */
export type Lifecycle = "pause" | "resume" | "stop" | "kill";
export const useLifecycle = (team: string, name: string) =>
  useTeamMutation(team, (op: Lifecycle) =>
    op === "stop" || op === "kill" ? apiCall(api.sessions[op], { name, wait: false }) : apiCall(api.sessions[op], { name }),
  );

export const useFork = (team: string, name: string) =>
  useTeamMutation(team, (body: { newName: string; prompt?: string }) => apiCall(api.sessions.fork, { name, ...body }));

export const useDeleteSession = (team: string, name: string) => useTeamMutation(team, () => apiCall(api.sessions.delete, { name }));

export const useSend = (team: string, name: string) => useTeamMutation(team, (message: string) => apiCall(api.sessions.send, { name, message, wait: false }));

export const useDecide = (team: string, name: string) =>
  useTeamMutation(team, (body: { approvalId: number; decision: "allow" | "deny"; note?: string; forSession?: boolean }) =>
    apiCall(api.sessions.decide, {
      name,
      approvalId: body.approvalId,
      decision: body.decision,
      ...(body.note ? { note: body.note } : {}),
      ...(body.forSession ? { forSession: true } : {}),
    }),
  );
