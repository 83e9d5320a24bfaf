import { Fragment } from "react";
import type { StaleArtifact } from "@/lib/api/lineage.ts";
import { staleCauseText, stepText } from "@/lib/stale-reason.ts";
import { RefLink } from "./ArtifactLineage.tsx";

/**
 * Why the current version is stale, one reason per line: what happened to the root version, then
 * the path from this version up to it, every version a link and every step saying how it was taken.
 */
export function StaleWhy({ team, stale }: { team: string; stale: StaleArtifact }) {
  return (
    <section className="stale-why" aria-label="why stale" data-testid="stale-why">
      <strong>Stale (v{stale.version})</strong>
      <ul className="plain">
        {stale.reasons.map((r) => (
          <li key={JSON.stringify(r)} data-testid="stale-reason">
            {staleCauseText(r)}
            {r.path.length > 0 && (
              <div className="stale-path">
                path: <RefLink team={team} refText={r.path[0].version} />
                {r.path.map((s) => (
                  <Fragment key={`${s.version} ${s.input}`}>
                    {" ← "}
                    <RefLink team={team} refText={s.input} /> <span className="muted">({stepText(s)})</span>
                  </Fragment>
                ))}
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
