/** Queries and changes of the pipelines pages (keys in ./keys.ts). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../api/endpoints/index.ts";
import { apiCall, apiGet, apiSend } from "../browser-api.ts";
import type { FieldIssue } from "../field-issues.ts";
import type { Rule } from "../api/pipelines.ts";
import { keys } from "./keys.ts";

export type PipelineItem = {
  id: string;
  team: string;
  status: "active" | "paused";
  rules: Rule[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  executions: Record<string, number>;
};
export type ExecutionItem = {
  id: number;
  rule: number;
  ruleName: string | null;
  eventId: number;
  eventType: string | null;
  conditionResult: boolean | null;
  action: string;
  outcome: string;
  detail: unknown;
  error: string | null;
  durationMs: number;
  at: string;
};
export type PipelineWithLog = PipelineItem & { log: ExecutionItem[]; nextCursor: number | null };
export type Validation = { valid: boolean; issues: FieldIssue[] };
export type DryRunResult = {
  triggerMatched: boolean;
  reason?: string;
  conditionResult: boolean | null;
  conditionError?: string;
  action: Record<string, unknown> | null;
  actionError?: string;
};
export type DryRunEvent = { event: unknown } | { eventId: number };

export const LOG_PAGE = 25;

export const usePipelines = (team: string) => useQuery({ queryKey: keys.pipelines(team), queryFn: () => apiGet<PipelineItem[]>("/api/pipelines", { team }) });

/** One page of the execution log, newest first; `cursor` is the previous page's nextCursor. */
export const usePipeline = (team: string, id: string, cursor?: number) =>
  useQuery({
    queryKey: [...keys.pipeline(team, id), cursor ?? null],
    queryFn: () => apiGet<PipelineWithLog>(`/api/pipelines/${encodeURIComponent(id)}`, { team, limit: LOG_PAGE, cursor }),
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
    queryFn: () => apiSend<Validation>("POST", "/api/pipelines/validate", { team, ...draft }),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
  });

/** Recent events a rule could be tried against. */
export const useRecentEvents = (team: string) =>
  useQuery({ queryKey: [...keys.events(team), { limit: 200 }], queryFn: () => apiCall(api.events.list, { team, limit: 200 }) });

export function usePipelineActions(team: string) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.pipelines(team) });
  return {
    create: useMutation({
      mutationFn: (input: { id: string; rules: unknown[] }) => apiSend<PipelineItem>("POST", "/api/pipelines", { team, ...input }),
      onSuccess: refresh,
    }),
    setStatus: useMutation({
      mutationFn: ({ id, to }: { id: string; to: "pause" | "resume" }) =>
        apiSend<PipelineItem>("POST", `/api/pipelines/${encodeURIComponent(id)}/${to}`, { team }),
      onSuccess: (_p, { id }) => {
        refresh();
        void qc.invalidateQueries({ queryKey: keys.pipeline(team, id) });
      },
    }),
    remove: useMutation({
      mutationFn: (id: string) => apiSend<{ deleted: string }>("DELETE", `/api/pipelines/${encodeURIComponent(id)}`, {}, { team }),
      onSuccess: refresh,
    }),
    dryRun: useMutation({
      mutationFn: (input: { rule: unknown } & DryRunEvent) => apiSend<DryRunResult>("POST", "/api/pipelines/dry-run", { team, ...input }),
    }),
  };
}
