/** Queries and changes of the pipelines pages (keys in ./keys.ts). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Trigger } from "../api/pipelines.ts";
import { asTyped } from "../api/endpoint.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

/** A sample event or a logged one, as the person wrote it. */
export type DryRunEvent = { event: unknown } | { eventId: number };

export const LOG_PAGE = 25;

export const usePipelines = (team: string) => useQuery({ queryKey: keys.pipelines(team), queryFn: () => apiCall(api.pipelines.list, { team }) });

/** One page of the execution log, newest first; `cursor` is the previous page's nextCursor. */
export const usePipeline = (team: string, id: string, cursor?: number) =>
  useQuery({
    queryKey: [...keys.pipeline(team, id), cursor ?? null],
    queryFn: () => apiCall(api.pipelines.get, { team, id, limit: LOG_PAGE, cursor }),
    placeholderData: keepPreviousData,
  });

/**
 * What creating this pipeline would refuse, field by field; the hub writes nothing. Keyed by the
 * input itself, so each distinct draft is asked about once.
 * @example const v = usePipelineValidation(team, useDebounced({ id, rules }, 400));
 */
export const usePipelineValidation = (team: string, draft: { id?: string; rules: unknown[] }) =>
  useQuery({
    queryKey: [...keys.pipelines(team), "validate", JSON.stringify(draft)],
    queryFn: () => apiCall(api.pipelines.validate, { team, ...draft }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });

/** Recent events a rule could be tried against. */
/** The logged events the trigger (with its filters) fires on, newest first; asked only while `enabled`. */
export const useMatchingEvents = (team: string, trigger: Trigger, enabled: boolean) =>
  useQuery({
    queryKey: [...keys.events(team), "matching", trigger],
    queryFn: () => apiCall(api.pipelines.matchingEvents, { team, trigger, limit: 50 }),
    enabled,
    retry: false,
  });

export function usePipelineActions(team: string) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.pipelines(team) });
  return {
    create: useMutation({
      mutationFn: (input: { id: string; rules: unknown[] }) => apiCall(api.pipelines.create, asTyped(api.pipelines.create, { team, ...input })),
      onSuccess: refresh,
    }),
    /** Replaces the rules of pipeline `id` (docs/domain.md#editing-a-pipeline). */
    update: useMutation({
      mutationFn: (input: { id: string; rules: unknown[] }) => apiCall(api.pipelines.update, asTyped(api.pipelines.update, { team, ...input })),
      onSuccess: (_p, { id }) => {
        refresh();
        void qc.invalidateQueries({ queryKey: keys.pipeline(team, id) });
      },
    }),
    setStatus: useMutation({
      mutationFn: ({ id, to }: { id: string; to: "pause" | "resume" }) => apiCall(api.pipelines[to], { team, id }),
      onSuccess: (_p, { id }) => {
        refresh();
        void qc.invalidateQueries({ queryKey: keys.pipeline(team, id) });
      },
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiCall(api.pipelines.delete, { team, id }),
      onSuccess: refresh,
    }),
    dryRun: useMutation({
      mutationFn: (input: { rule: unknown } & DryRunEvent) => apiCall(api.pipelines.dryRun, asTyped(api.pipelines.dryRun, { team, ...input })),
    }),
  };
}
