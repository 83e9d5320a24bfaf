/**
 * A session's runnable work tree on the dashboard (docs/worktrees.md#runnable-work-trees): its ports, config, setup and
 * run state, the output of its commands, and the buttons that set it up again or start and stop its run command. The
 * state sits under the session's key, so the team's /ws events (setup started or finished, run started or exited)
 * refresh it.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { OutputKind } from "../api/runnable.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

const runnableKey = (team: string, name: string) => [...keys.session(team, name), "runnable"] as const;

export const useRunnable = (team: string, name: string) =>
  useQuery({ queryKey: runnableKey(team, name), queryFn: () => apiCall(api.worktrees.runnable, { name }), retry: false });

/** One page of a command's output after a piece id (the live pieces come over /ws). */
export const commandOutputPage = (name: string, kind: OutputKind, after: number) =>
  apiCall(api.worktrees.commandOutput, { name, kind, after: after || undefined });

/** The answer is the state now (setup pending): shown at once, then the team is refreshed. */
export function useSetupAgain(team: string, name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiCall(api.worktrees.setup, { name }),
    onSuccess: (state) => {
      qc.setQueryData(runnableKey(team, name), state);
      return qc.invalidateQueries({ queryKey: keys.team(team) });
    },
  });
}

/** Start (`false`) or stop (`true`) the run command; its start or end arrives as events that refresh the state. */
export function useRunCommand(team: string, name: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (stop: boolean) => apiCall(api.worktrees.run, { name, stop }),
    onSuccess: () => qc.invalidateQueries({ queryKey: runnableKey(team, name) }),
  });
}
