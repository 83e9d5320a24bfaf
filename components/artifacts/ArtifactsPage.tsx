"use client";

import { useMemo, useState } from "react";
import { useDebounced } from "@/lib/use-debounced.ts";
import { useArtifactList, useArtifactTypes, useStale } from "@/lib/queries/artifacts.ts";
import { useRoster } from "@/lib/queries/roster.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { ListState } from "../ui/Card.tsx";
import { ArtifactFilters, NO_FILTERS, toFilters, type FilterDraft } from "./ArtifactFilters.tsx";
import { ArtifactList } from "./ArtifactList.tsx";

export function ArtifactsPage() {
  const { team } = useTeam();
  const [draft, setDraft] = useState<FilterDraft>(NO_FILTERS);
  const filters = useDebounced(
    useMemo(() => toFilters(draft), [draft]),
    250,
  );
  const list = useArtifactList(team, filters);
  const stale = useStale(team);
  const types = useArtifactTypes(team);
  const roster = useRoster(team);
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const names = [...new Set(["operator", ...(roster.data ?? []).map((m) => m.name), ...items.flatMap((a) => (a.publisher ? [a.publisher] : []))])].sort();
  const tags = [...new Set(items.flatMap((a) => a.tags))].sort();
  const filtered = Object.keys(filters).length > 0;

  return (
    <>
      <h1 className="page-title">Artifacts</h1>
      <section className="card" aria-label="artifacts">
        <ArtifactFilters draft={draft} onChange={setDraft} types={(types.data ?? []).map((t) => t.name)} names={names} tags={tags} />
        <ListState
          loading={list.isLoading}
          error={list.error}
          empty={items.length === 0}
          hint={
            filtered ? (
              "No artifact matches these filters."
            ) : (
              <>
                No artifacts in this team. Publish one with <code>teamhub artifact-publish …</code>
              </>
            )
          }
        />
        {items.length > 0 && (
          <>
            <ArtifactList team={team} items={items} stale={stale.data} />
            <div className="row list-foot">
              <span className="muted" data-testid="artifact-count">
                {items.length} shown{list.hasNextPage ? ", more available" : ""}
              </span>
              {list.hasNextPage && (
                <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                  {list.isFetchingNextPage ? "Loading…" : "Load more"}
                </button>
              )}
              {stale.error && <span className="error">Staleness unavailable: {(stale.error as Error).message}</span>}
            </div>
          </>
        )}
      </section>
    </>
  );
}
