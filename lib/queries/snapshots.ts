/** Queries and changes of the snapshots page (keys in ./keys.ts). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiGet, apiSend } from "../browser-api.ts";
import type { RewindPreview, RewindSummary } from "../api/snapshots.ts";
import { keys } from "./keys.ts";

export type SnapshotItem = {
  id: string;
  team: string;
  label: string;
  kind: "manual" | "pre-rollback" | "pre-replay" | "pre-reset";
  createdBy: string;
  createdAt: string;
  maxSeq: number;
  lastEventId: number;
  size: number;
  counts: { contracts: number; artifacts: number; pipelines: number; members: number };
};
export type SnapshotContract = { id: string; title: string; assignee: string; status: string; inputs: Record<string, unknown> };
export type SnapshotWithState = SnapshotItem & { state: { contracts: SnapshotContract[] } };

export type DiffEntity = { id: string } & Record<string, unknown>;
export type FieldChanges = Record<string, { old: unknown; new: unknown }>;
export type KindDiff = { added: DiffEntity[]; removed: DiffEntity[]; changed: Array<{ id: string; fields: FieldChanges }> };
export const DIFF_KINDS = ["contracts", "artifacts", "pipelines", "roster"] as const;
export type DiffKindName = (typeof DIFF_KINDS)[number];
export type StateDiff = Record<DiffKindName, KindDiff> & { team: string; a: string; b: string };

export type { Entities, RewindPreview, RewindSummary } from "../api/snapshots.ts";

export const CURRENT = "current";
const PAGE = 50;
const path = (id: string) => `/api/snapshots/${encodeURIComponent(id)}`;

/** Newest first; `cursor` is the previous page's nextCursor. */
export const useSnapshots = (team: string, cursor?: number) =>
  useQuery({
    queryKey: [...keys.snapshots(team), "list", cursor ?? null],
    queryFn: () => apiGet<{ items: SnapshotItem[]; nextCursor: number | null }>("/api/snapshots", { team, limit: PAGE, cursor }),
    placeholderData: keepPreviousData,
  });

/** A snapshot with its stored state (for prefilling replay overrides). */
export const useSnapshot = (team: string, id: string | null) =>
  useQuery({ queryKey: [...keys.snapshots(team), "get", id], queryFn: () => apiGet<SnapshotWithState>(path(id!), { team }), enabled: id !== null });

/** Each side is a snapshot id or "current"; with "current" the diff follows the live state. */
export const useSnapshotDiff = (team: string, a: string | null, b: string) =>
  useQuery({
    queryKey: [...keys.snapshots(team), "diff", a, b],
    queryFn: () => apiGet<StateDiff>("/api/snapshots/diff", { team, a: a!, b }),
    enabled: a !== null,
    placeholderData: keepPreviousData,
  });

export function useSnapshotActions(team: string) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.team(team) });
  return {
    take: useMutation({
      mutationFn: (input: { id?: string; label: string }) => apiSend<SnapshotItem>("POST", "/api/snapshots", { team, ...input }),
      onSuccess: refresh,
    }),
    rollback: useMutation({ mutationFn: (id: string) => apiSend<RewindSummary>("POST", `${path(id)}/rollback`, { team }), onSuccess: refresh }),
    replay: useMutation({
      mutationFn: ({ id, overrides }: { id: string; overrides: Record<string, unknown> }) =>
        apiSend<RewindSummary>("POST", `${path(id)}/replay`, { team, overrides }),
      onSuccess: refresh,
    }),
    // Previews write nothing, so nothing is refreshed after them.
    previewRollback: useMutation({ mutationFn: (id: string) => apiSend<RewindPreview>("POST", `${path(id)}/rollback/preview`, { team }) }),
    previewReplay: useMutation({
      mutationFn: ({ id, overrides }: { id: string; overrides: Record<string, unknown> }) =>
        apiSend<RewindPreview>("POST", `${path(id)}/replay/preview`, { team, overrides }),
    }),
    remove: useMutation({ mutationFn: (id: string) => apiSend<{ id: string }>("DELETE", path(id), {}, { team }), onSuccess: refresh }),
  };
}
