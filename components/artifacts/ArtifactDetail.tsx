"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import { useArtifactHistory, useDerivedVersions, useImpact, useReaders, useStale } from "@/lib/queries/artifacts.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { JsonView } from "../ui/JsonView.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { When } from "../ui/When.tsx";
import { ArtifactLineage } from "./ArtifactLineage.tsx";
import { ArtifactReaders } from "./ArtifactReaders.tsx";
import { StaleBadge } from "./StaleBadge.tsx";
import { StaleWhy } from "./StaleWhy.tsx";
import { StaleFix } from "../fixes/StaleFix.tsx";
import { VersionCompare } from "./VersionCompare.tsx";
import { CodeRefLink } from "../code/CodeRefLink.tsx";
import { VersionHistory } from "./VersionHistory.tsx";

/** One artifact: its versions, the data of one of them, diffs, readers and lineage; `version` comes from `?version=`. */
export function ArtifactDetail({ id, version }: { id: string; version?: number }) {
  const { team } = useTeam();
  const history = useArtifactHistory(team, id);
  const readers = useReaders(team, id);
  const stale = useStale(team);
  const impact = useImpact(team, id);
  const [picked, setPicked] = useState(version);
  // A link to another version of this artifact changes the query string, not the page.
  useEffect(() => setPicked(version), [version]);
  const artifact = history.data?.artifact;
  const versions = history.data?.versions ?? [];
  const selected = versions.find((v) => v.version === picked) ?? versions.find((v) => v.version === artifact?.currentVersion) ?? versions.at(-1);
  const derived = useDerivedVersions(team, id, selected?.version);
  const staleInfo = stale.data?.get(id);
  const staleVersion = staleInfo && versions.find((v) => v.version === staleInfo.version);

  if (!artifact || !selected) {
    return (
      <>
        <h1 className="page-title mono">{id}</h1>
        <ListState loading={history.isLoading} error={history.error} empty hint="This artifact has no versions." />
        <Link href="/artifacts">All artifacts</Link>
      </>
    );
  }
  return (
    <>
      <nav className="crumbs" aria-label="breadcrumb">
        <Link href="/artifacts">Artifacts</Link> / <span className="mono">{id}</span>
      </nav>
      <header className="artifact-head" data-testid="artifact-head">
        <h1 className="page-title mono">{id}</h1>
        <StatusBadge status={artifact.status} />
        <StaleBadge stale={staleInfo} />
        {artifact.archived && <span className="badge">archived</span>}
        <span className="muted">
          {artifact.name !== id && <>{artifact.name} · </>}
          <span className="mono">{artifact.type}</span> · latest v{artifact.latestVersion}
          {artifact.currentVersion !== artifact.latestVersion && (
            <> · current {artifact.currentVersion ? `v${artifact.currentVersion}` : "none (all rolled back)"}</>
          )}{" "}
          · updated <When at={artifact.updatedAt} />
        </span>
        {artifact.tags.map((t) => (
          <span key={t} className="tag">
            {t}
          </span>
        ))}
      </header>
      {staleInfo && <StaleWhy team={team} stale={staleInfo} />}
      {staleInfo && staleVersion && <StaleFix team={team} stale={staleInfo} version={staleVersion} />}
      <div className="grid">
        <Card title="Versions" testId="history">
          <VersionHistory team={team} versions={versions} selected={selected.version} onSelect={setPicked} />
        </Card>
        <Card title={`Data of v${selected.version}`} testId="version-data">
          <p className="muted">
            {selected.size} bytes · published by {selected.publisher} <When at={selected.createdAt} />
            {selected.status !== "active" && <> · {selected.status.replace("_", " ")}</>}
            {selected.code && (
              <>
                {" "}
                · code <CodeRefLink code={selected.code} />
              </>
            )}
          </p>
          <JsonView value={selected.data} label={`data of ${id} v${selected.version}`} />
        </Card>
        <Card title="Compare versions" testId="compare" wide>
          <VersionCompare key={selected.version} versions={versions} selected={selected.version} />
        </Card>
        <Card title="Lineage" testId="lineage-card">
          <ArtifactLineage team={team} version={selected.version} derivedFrom={selected.derivedFrom} derived={derived} impact={impact} />
        </Card>
        <Card title="Readers" testId="readers-card">
          <ListState
            loading={readers.isLoading}
            error={readers.error}
            empty={(readers.data?.reads.length ?? 0) === 0}
            hint="Nobody has read this artifact yet (reads through artifact_get are recorded; browsing here is not)."
          />
          {readers.data && readers.data.reads.length > 0 && (
            <ArtifactReaders readers={readers.data.readers} reads={readers.data.reads} current={artifact.currentVersion} />
          )}
        </Card>
      </div>
    </>
  );
}
