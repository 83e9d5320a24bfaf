/**
 * Queries of the artifact pages (keys in ./keys.ts). Browsing reads versions through the history
 * endpoint, which records nothing: `GET /api/artifacts/:id` would record a read by `operator`,
 * and the readers list would then say the operator read every version someone looked at here.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from "@tanstack/react-query";
import type { StaleArtifact } from "../api/lineage.ts";
import { apiGet } from "../browser-api.ts";
import type { ArtifactItem } from "./home.ts";
import { keys } from "./keys.ts";

export type ArtifactFilters = { type?: string; publisher?: string; tag?: string; status?: "active" | "rolled_back"; stale?: boolean };
export type ArtifactDetailView = ArtifactItem & { team: string; archived: boolean; createdAt: string };
export type VersionView = {
  artifactId: string;
  version: number;
  type: string;
  name: string;
  status: string;
  summary: string;
  size: number;
  publisher: string;
  sessionId: string | null;
  contractId: string | null;
  derivedFrom: string[];
  createdAt: string;
  data: unknown;
};
export type ReadRecord = { reader: string; version: number; at: string };
export type LineageNode = { key: string; artifactId: string; version: number; type: string; status: string; current: boolean; stale: boolean; depth: number };
export type LineageEdge = { from: string; to: string; kind: string; contractId: string | null };
export type DependentContract = { contractId: string; status: string; assignee: string; artifactId: string; relation: "dependency" | "criterion" | "output" };
export type Impact = {
  artifactId: string;
  artifacts: Array<{ artifactId: string; type: string; currentVersion: number; depth: number }>;
  contracts: DependentContract[];
};

const PAGE = 100;

export const useArtifactList = (team: string, filters: ArtifactFilters) =>
  useInfiniteQuery({
    queryKey: keys.artifacts(team, filters),
    queryFn: ({ pageParam }) =>
      apiGet<{ items: ArtifactItem[]; nextCursor: number | null }>("/api/artifacts", { team, limit: PAGE, cursor: pageParam, ...filters }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    // Changing a filter keeps the rows in view until the new ones arrive, instead of flashing "Loading…".
    placeholderData: keepPreviousData,
  });

/** Every stale artifact of the team with its reasons, by id. */
export const useStale = (team: string) =>
  useQuery({
    queryKey: keys.stale(team),
    queryFn: async () => new Map((await apiGet<StaleArtifact[]>("/api/stale", { team })).map((s) => [s.artifactId, s])),
  });

export const useArtifactTypes = (team: string) =>
  useQuery({ queryKey: keys.artifactTypes(team), queryFn: () => apiGet<Array<{ name: string; builtIn: boolean }>>("/api/artifact-types", { team }) });

/** The artifact and all its versions with their data, oldest first; records no read. */
export const useArtifactHistory = (team: string, id: string) =>
  useQuery({
    queryKey: [...keys.artifact(team, id), "history"],
    queryFn: () =>
      apiGet<{ artifact: ArtifactDetailView; versions: VersionView[] }>(`/api/artifacts/${encodeURIComponent(id)}/history`, { team, includeData: true }),
  });

export const useReaders = (team: string, id: string) =>
  useQuery({
    queryKey: [...keys.artifact(team, id), "readers"],
    queryFn: () => apiGet<{ reads: ReadRecord[] }>(`/api/artifacts/${encodeURIComponent(id)}/readers`, { team }),
  });

/** The versions made directly from `ref` (one hop downstream). */
export const useDerivedVersions = (team: string, id: string, version: number | undefined) =>
  useQuery({
    queryKey: [...keys.artifact(team, id), "downstream", version],
    enabled: version !== undefined,
    queryFn: () =>
      apiGet<{ nodes: LineageNode[]; edges: LineageEdge[] }>("/api/lineage", { team, ref: `${id}@v${version}`, direction: "downstream", depth: 1 }),
  });

export const useImpact = (team: string, id: string) =>
  useQuery({ queryKey: [...keys.artifact(team, id), "impact"], queryFn: () => apiGet<Impact>("/api/impact", { team, id }) });
