/**
 * Queries of the artifact pages (keys in ./keys.ts). Browsing reads versions through the history
 * endpoint, which records nothing: `GET /api/artifacts/:id` would record a read by `operator`,
 * and the readers list would then say the operator read every version someone looked at here.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { ListArtifactsInput } from "../api/artifacts.ts";
import { api } from "../api/endpoints/index.ts";
import { apiCall } from "../browser-api.ts";
import { keys } from "./keys.ts";

export type ArtifactFilters = Pick<z.input<typeof ListArtifactsInput>, "type" | "publisher" | "tag" | "status" | "stale">;

const PAGE = 100;

export function useArtifactList(team: string, filters: ArtifactFilters) {
  const params = { ...filters, limit: PAGE };
  return useInfiniteQuery({
    queryKey: keys.artifacts.pages(team, params),
    queryFn: ({ pageParam }) => apiCall(api.artifacts.list, { team, ...params, cursor: pageParam }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Changing a filter keeps the rows in view until the new ones arrive, instead of flashing "Loading…".
    placeholderData: keepPreviousData,
  });
}

/** Every stale artifact of the team with its reasons, by id. */
export const useStale = (team: string) =>
  useQuery({
    queryKey: keys.stale(team),
    queryFn: async () => new Map((await apiCall(api.lineage.stale, { team })).map((s) => [s.artifactId, s])),
  });

export const useArtifactTypes = (team: string) => useQuery({ queryKey: keys.artifactTypes(team), queryFn: () => apiCall(api.artifacts.types, { team }) });

/** The artifact and all its versions with their data, oldest first; records no read. */
export const useArtifactHistory = (team: string, id: string) =>
  useQuery({
    queryKey: [...keys.artifact(team, id), "history"],
    queryFn: () => apiCall(api.artifacts.history, { team, id, includeData: true }),
  });

export const useReaders = (team: string, id: string) =>
  useQuery({
    queryKey: [...keys.artifact(team, id), "readers"],
    queryFn: () => apiCall(api.artifacts.readers, { team, id }),
  });

/** The versions made directly from `ref` (one hop downstream). */
export const useDerivedVersions = (team: string, id: string, version: number | undefined) =>
  useQuery({
    queryKey: [...keys.artifact(team, id), "downstream", version],
    enabled: version !== undefined,
    queryFn: () => apiCall(api.lineage.graph, { team, ref: `${id}@v${version}`, direction: "downstream", depth: 1 }),
  });

export const useImpact = (team: string, id: string) =>
  useQuery({ queryKey: [...keys.artifact(team, id), "impact"], queryFn: () => apiCall(api.lineage.impact, { team, id }) });
