import Link from "next/link";
import type { UseQueryResult } from "@tanstack/react-query";
import type { DependentContract, Impact, LineageNode } from "@/lib/api/lineage.ts";
import { ListState } from "../ui/Card.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { artifactHref } from "./ArtifactList.tsx";

const RELATION: Record<DependentContract["relation"], string> = { dependency: "depends on", criterion: "checks in its criteria", output: "expects as output" };

/** A version reference (`id@vN`, or a bare id) as a link to that artifact page. */
export function RefLink({ team, refText }: { team: string; refText: string }) {
  const [id, v] = refText.split("@v");
  return (
    <Link href={artifactHref(team, id, v ? Number(v) : undefined)} className="mono">
      {refText}
    </Link>
  );
}

/**
 * Where the selected version came from and what was made from it: its inputs, the versions
 * derived directly from it, the artifacts whose current version descends from this artifact, and
 * the contracts that rely on any of those.
 */
export function ArtifactLineage({
  team,
  version,
  derivedFrom,
  derived,
  impact,
}: {
  team: string;
  version: number;
  derivedFrom: string[];
  derived: UseQueryResult<{ nodes: LineageNode[] }>;
  impact: UseQueryResult<Impact>;
}) {
  const made = (derived.data?.nodes ?? []).filter((n) => n.depth === 1);
  const usedBy = impact.data?.artifacts ?? [];
  const contracts = impact.data?.contracts ?? [];
  return (
    <div className="lineage" data-testid="lineage">
      <h3>Derived from (v{version})</h3>
      {derivedFrom.length === 0 ? (
        <p className="empty">v{version} was not derived from another version.</p>
      ) : (
        <ul className="plain" data-testid="derived-from">
          {derivedFrom.map((r) => (
            <li key={r}>
              <RefLink team={team} refText={r} />
            </li>
          ))}
        </ul>
      )}
      <h3>Made from v{version}</h3>
      <ListState loading={derived.isLoading} error={derived.error} empty={made.length === 0} hint={`Nothing was derived from v${version}.`} />
      {made.length > 0 && (
        <ul className="plain" data-testid="made-from">
          {made.map((n) => (
            <li key={n.key}>
              <RefLink team={team} refText={n.key} /> <span className="muted">{n.type}</span>
              {!n.current && <span className="muted"> (not current)</span>}
              {n.stale && <span className="badge stale">stale</span>}
            </li>
          ))}
        </ul>
      )}
      <h3>Used by (current versions downstream)</h3>
      <ListState
        loading={impact.isLoading}
        error={impact.error}
        empty={usedBy.length === 0}
        hint="No current version of another artifact descends from this one."
      />
      {usedBy.length > 0 && (
        <ul className="plain" data-testid="used-by">
          {usedBy.map((a) => (
            <li key={a.artifactId}>
              <RefLink team={team} refText={`${a.artifactId}@v${a.currentVersion}`} />{" "}
              <span className="muted">
                {a.type}, {a.depth} {a.depth === 1 ? "hop" : "hops"} away
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3>Contracts relying on it</h3>
      <ListState
        loading={impact.isLoading}
        error={impact.error}
        empty={contracts.length === 0}
        hint="No contract relies on this artifact or on what descends from it."
      />
      {contracts.length > 0 && (
        <ul className="plain" data-testid="contracts">
          {contracts.map((c) => (
            <li key={`${c.contractId}/${c.artifactId}/${c.relation}`}>
              <span className="mono">{c.contractId}</span> <StatusBadge status={c.status} />{" "}
              <span className="muted">
                ({c.assignee}) {RELATION[c.relation]}
              </span>{" "}
              <RefLink team={team} refText={c.artifactId} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
