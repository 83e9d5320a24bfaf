/** Queries and changes of the snapshots page (keys in ./keys.ts). */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { asTyped } from "../api/endpoint.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

const PAGE = 50;

/** Newest first; `cursor` is the previous page's nextCursor. */
export const useSnapshots = (team: string, cursor?: number) =>
  useQuery({
    queryKey: [...keys.snapshots(team), "list", cursor ?? null],
    queryFn: () => apiCall(api.snapshots.list, { team, limit: PAGE, cursor }),
    placeholderData: keepPreviousData,
  });

/** A snapshot with its stored state (for prefilling replay overrides). */
export const useSnapshot = (team: string, id: string | null) =>
  useQuery({ queryKey: [...keys.snapshots(team), "get", id], queryFn: () => apiCall(api.snapshots.get, { team, id: id! }), enabled: id !== null });

/** Each side is a snapshot id or "current"; with "current" the diff follows the live state. */
export const useSnapshotDiff = (team: string, a: string | null, b: string) =>
  useQuery({
    queryKey: [...keys.snapshots(team), "diff", a, b],
    queryFn: () => apiCall(api.snapshots.diff, { team, a: a!, b }),
    enabled: a !== null,
    placeholderData: keepPreviousData,
  });

/** Overrides as the person wrote them: the hub checks them and names each problem by its field. */
type Rewind = { id: string; overrides: Record<string, unknown> };

export function useSnapshotActions(team: string) {
  const qc = useQueryClient();
  const refresh = () => void qc.invalidateQueries({ queryKey: keys.team(team) });
  const replayInput = ({ id, overrides }: Rewind) => asTyped(api.snapshots.replay, { team, id, overrides });
  return {
    take: useMutation({
      mutationFn: (input: { id?: string; label: string }) => apiCall(api.snapshots.take, { team, ...input }),
      onSuccess: refresh,
    }),
    rollback: useMutation({ mutationFn: (id: string) => apiCall(api.snapshots.rollback, { team, id }), onSuccess: refresh }),
    replay: useMutation({ mutationFn: (r: Rewind) => apiCall(api.snapshots.replay, replayInput(r)), onSuccess: refresh }),
    // Previews write nothing, so nothing is refreshed after them.
    previewRollback: useMutation({ mutationFn: (id: string) => apiCall(api.snapshots.rollbackPreview, { team, id }) }),
    previewReplay: useMutation({ mutationFn: (r: Rewind) => apiCall(api.snapshots.replayPreview, replayInput(r)) }),
    remove: useMutation({ mutationFn: (id: string) => apiCall(api.snapshots.delete, { team, id }), onSuccess: refresh }),
  };
}
