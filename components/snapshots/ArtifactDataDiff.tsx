"use client";

import { useArtifactHistory } from "@/lib/queries/artifacts.ts";
import { JsonDiff } from "../ui/JsonDiff.tsx";

/**
 * What changed inside an artifact between the two versions a snapshot diff names, field by field: the snapshot
 * stores only version pointers, so the data is read through the artifact's history (which records no read).
 */
export function ArtifactDataDiff({ team, id, from, to }: { team: string; id: string; from: number; to: number }) {
  const history = useArtifactHistory(team, id);
  if (history.isLoading)
    return (
      <p className="muted">
        Loading the data of v{from} and v{to}…
      </p>
    );
  if (history.error) return <p className="error">Could not load the data: {(history.error as Error).message}</p>;
  const data = (v: number) => history.data?.versions.find((x) => x.version === v)?.data;
  return (
    <div className="artifact-data-diff" data-testid="artifact-data-diff">
      <h4>
        Data, v{from} → v{to}
      </h4>
      <JsonDiff before={data(from)} after={data(to)} onlyChanges labels={[`v${from}`, `v${to}`]} />
    </div>
  );
}
